import StoredSettings

/// Stands in for a settings file that could not be opened while a tool runs its `config`
/// command, so `config path` still names the file (``SettingsCommand`` stops every other
/// subcommand with ``error``): it holds nothing, and every write throws the error the open
/// threw, naming the file.
final class UnreadableFile: Storable {
    /// The file's path.
    let path: String
    /// Why it could not be opened.
    let error: StorageError

    init(path: String, error: StorageError) {
        self.path = path
        self.error = error
    }

    func value(forKey key: String) -> StoredValue? { nil }

    func keys() -> [String] { [] }

    func setValue(_ value: StoredValue?, forKey key: String) throws { throw error }

    func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R { throw error }

    func changes() -> AsyncStream<StoredChange> { AsyncStream { $0.finish() } }

    var location: String? { path }
}
