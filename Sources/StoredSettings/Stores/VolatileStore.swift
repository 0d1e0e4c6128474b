/// A backend that keeps values in this process's memory only, for as long as the store lives:
/// the store a settings group is created on to read its declarations (keys, defaults, help)
/// without touching any persistent store.
///
/// It keeps the whole ``Storable`` contract through ``DictionaryStorage``: keys validated on
/// write, writes of an identical value commit nothing, `update` atomic, every commit published
/// once, in order. Its ``location`` is `memory`.
///
/// Thread-safety: safe from any thread or task (the storage's locks guard every value).
/// Apps and tests use `InMemoryStore` from the test-support library instead; this one is
/// shared with the package's own targets only.
package final class VolatileStore: Storable {
    private let storage = DictionaryStorage()

    /// Creates an empty store.
    package init() {}

    package func value(forKey key: String) -> StoredValue? { storage.value(forKey: key) }
    package func setValue(_ value: StoredValue?, forKey key: String) throws { try storage.setValue(value, forKey: key) }
    package func keys() -> [String] { storage.keys() }
    package func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try storage.update(forKey: key, body)
    }
    package func changes() -> AsyncStream<StoredChange> { storage.changes() }
    package func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        storage.valueWithRevision(forKey: key)
    }
    package var location: String? { "memory" }
}
