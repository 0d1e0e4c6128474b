public import StoredSettings

/// A store that keeps values in memory: the default double for tests and previews.
///
/// ```swift
/// let store = InMemoryStore(["autoReload": .bool(true)])
/// let settings = AppSettings(store: store)
/// #expect(settings.autoReload)
/// ```
///
/// It keeps the whole ``Storable`` contract (validated keys, atomic `update`, ordered change
/// delivery, no change event for an identical write), so code under test behaves as with a
/// real store. Create a fresh one per test; nothing is shared between instances.
///
/// Thread-safety: every member may be used from any thread or task.
public final class InMemoryStore: Storable, ChangeSnapshotting {
    private let storage: DictionaryStorage

    /// Creates a store holding `initial`.
    ///
    /// - Parameter initial: Values to start with, by key. Keys are not validated here, so a
    ///   test can seed a key that writes would reject.
    public init(_ initial: [String: StoredValue] = [:]) {
        storage = DictionaryStorage(initial)
    }

    /// Every stored value, by key.
    public var values: [String: StoredValue] { storage.snapshot }

    /// How many change streams are subscribed now; drops back when consumers stop. Where the
    /// Observation framework exists, a store that settings were made on keeps one of them (the
    /// settings' own, ``StoredSettings/ChangeSnapshotting/keySetSubscription(onChange:)``) while it lives.
    public var subscriberCount: Int { storage.subscriberCount }

    /// Returns once exactly `count` ``changes()`` streams are subscribed: at once when they are,
    /// else as soon as a consumer subscribes or stops.
    ///
    /// A test awaits it after stopping a consumer, instead of polling ``subscriberCount``:
    ///
    /// ```swift
    /// let idle = store.subscriberCount   // after making the settings
    /// consumer.cancel()
    /// await store.waitForSubscriberCount(idle)
    /// ```
    ///
    /// It waits on the subscriptions' own events, never on a clock. It also returns when the
    /// calling task is cancelled (as Swift Testing's `.timeLimit` trait does to a test that
    /// runs too long), so check ``subscriberCount`` afterwards.
    public func waitForSubscriberCount(_ count: Int) async {
        await storage.waitForSubscriberCount(count)
    }

    /// `memory`.
    public var location: String? { "memory" }

    /// The value stored under `key`.
    public func value(forKey key: String) -> StoredValue? {
        storage.value(forKey: key)
    }

    /// The value and the store's revision, read together.
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        storage.valueWithRevision(forKey: key)
    }

    /// Stores `value` under `key`, or removes the key when `value` is `nil`.
    ///
    /// - Throws: ``StorageError/Code/invalidKey`` for an empty key or one with control
    ///   characters; ``StorageError/Code/reentrantWrite`` from inside an update body of this
    ///   store.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        try storage.setValue(value, forKey: key)
    }

    /// Every key that holds a value.
    public func keys() -> [String] {
        storage.keys()
    }

    /// Reads, changes and writes the value with no other write in between.
    ///
    /// `body` may read this store; a write it makes to this store throws
    /// ``StorageError/Code/reentrantWrite``, as on every shipped backend.
    ///
    /// - Throws: ``StorageError/Code/invalidKey``, ``StorageError/Code/reentrantWrite`` when
    ///   called from inside an update body of this store, or what `body` throws (nothing is
    ///   written then).
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try storage.update(forKey: key, body)
    }

    /// Every change committed from now on, in order, each once.
    public func changes() -> AsyncStream<StoredChange> {
        storage.changes()
    }

    /// The value of `key` and a stream of every later change to it, as one step.
    public func subscription(readingValueForKey key: String) -> KeySubscription {
        storage.subscription(readingValueForKey: key)
    }

    /// Calls `onChange` with each change to the keys passed to the subscription's `follow`, on
    /// the writing thread once the write holds no lock.
    public func keySetSubscription(onChange: @escaping @Sendable (StoredChange) -> Void) -> KeySetSubscription {
        storage.keySetSubscription(onChange: onChange)
    }
}
