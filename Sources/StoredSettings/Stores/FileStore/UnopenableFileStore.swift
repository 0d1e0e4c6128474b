/// The default store when its settings file exists but cannot be opened (it does not parse, it
/// is too large, it cannot be read): a store that holds nothing and refuses every write.
///
/// Reads return `nil`, so settings read their defaults; every write throws the opening error,
/// naming the key, so no change is lost silently. The file is never touched.
///
/// Thread-safety: immutable apart from a thread-safe, empty change stream.
final class UnopenableFileStore: Storable {
    /// Why the file could not be opened, naming it (and the line, for a parse error).
    let problem: StorageError
    /// Only for ``changes()``: nothing is ever committed, so its streams never yield.
    private let storage = DictionaryStorage()

    init(problem: StorageError) {
        self.problem = problem
    }

    /// The error that a write of `key` throws.
    func refusal(forKey key: String) -> StorageError {
        var error = problem
        error.key = key
        let note = "the change to '\(key)' was not saved; fix or remove the file, then run again"
        error.message = error.message.map { $0 + "; " + note } ?? note
        return error
    }

    func value(forKey key: String) -> StoredValue? { nil }

    func keys() -> [String] { [] }

    func setValue(_ value: StoredValue?, forKey key: String) throws {
        throw refusal(forKey: key)
    }

    /// Runs `body` on `nil`; throws when `body` changes it, since the change cannot be saved.
    func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        var value: StoredValue?
        let result = try body(&value)
        guard value == nil else { throw refusal(forKey: key) }
        return result
    }

    func changes() -> AsyncStream<StoredChange> { storage.changes() }

    var location: String? { problem.location }
}
