import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

// The code of the "Implementing a backend" article, verbatim, so the compiler checks it.

final class DictionaryBackend: Storable, @unchecked Sendable {
    // Safe because every access to `values`, `subscribers` and `updating` holds `lock`.
    private let lock = NSRecursiveLock() // recursive, so an update body may read the store
    private var values: [String: StoredValue] = [:]
    private var subscribers: [UUID: AsyncStream<StoredChange>.Continuation] = [:]
    private var updating = false // set while an update body runs; only its thread holds the lock

    func value(forKey key: String) -> StoredValue? {
        lock.withLock { values[key] }
    }

    func setValue(_ value: StoredValue?, forKey key: String) throws {
        try update(forKey: key) { $0 = value }
    }

    func keys() -> [String] {
        lock.withLock { Array(values.keys) }
    }

    func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try StorageError.validate(key: key) // empty keys and control characters
        return try lock.withLock {
            guard !updating else { throw StorageError(.reentrantWrite, key: key) }
            updating = true
            defer { updating = false }
            var value = values[key]
            let result = try body(&value)
            if !value.isIdentical(to: values[key]) { // nil and nil are identical too
                values[key] = value
                for continuation in subscribers.values {
                    continuation.yield(StoredChange(key: key, value: value))
                }
            }
            return result
        }
    }

    func changes() -> AsyncStream<StoredChange> {
        let (stream, continuation) = AsyncStream<StoredChange>.makeStream()
        let id = UUID()
        lock.withLock { subscribers[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.lock.withLock { _ = self.subscribers.removeValue(forKey: id) }
        }
        return stream
    }
}

@Suite(.timeLimit(TestScale.hangGuard))
struct ImplementingABackendExampleTests {
    @Test func dictionaryBackendConforms() async {
        let conformance = StoreConformance {
            StoreConformance.Subject(store: DictionaryBackend())
        }
        let failures = await conformance.run()
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func articleBackendKeepsValuesAndDeliversChanges() async throws {
        let backend = DictionaryBackend()
        let changes = backend.changes()
        let settings = StoreContext.withStore(backend) { Stored("greeting", default: "hello") }
        #expect(settings.wrappedValue == "hello")
        settings.wrappedValue = "hi"
        #expect(backend.value(forKey: "greeting") == .string("hi"))
        settings.wrappedValue = "hi"
        settings.reset()
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == StoredChange(key: "greeting", value: .string("hi")))
        #expect(await iterator.next() == StoredChange(key: "greeting", value: nil))
    }
}
