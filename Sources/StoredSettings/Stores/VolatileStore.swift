/// A backend that keeps values in this process's memory only: the store a settings group is created
/// on to read its declarations (keys, defaults, help) without touching a persistent store. It keeps
/// the whole ``Storable`` contract through ``DictionaryStorage`` and is thread-safe; apps and tests
/// use `InMemoryStore` from the test-support library instead.
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
