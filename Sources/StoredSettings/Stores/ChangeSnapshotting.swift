/// A store that can read a key and subscribe to its changes as one step, so no change falls
/// between the read and the subscription, and none is counted on both sides.
///
/// ``Stored/updates`` uses it when the store conforms; for other stores it subscribes first
/// and reads second, which may repeat a change that raced with the read. A backend conforms by
/// reading and subscribing (``ChangeBroadcaster/subscription(key:)``) under the lock its
/// commits publish under.
public protocol ChangeSnapshotting: Storable {
    /// The value of `key` now, and a stream of every change to `key` committed after that
    /// read (changes to other keys may be left out).
    ///
    /// Thread-safety: called from any thread; the read and the subscription are one step.
    func subscription(readingValueForKey key: String) -> KeySubscription

    /// One stream of the changes to the keys passed to its `follow`, none at first: how the
    /// Observation framework's reads of ``Stored`` settings follow a store, each key alone
    /// (so a `UserDefaultsStore` observes it in other processes too) with one subscription
    /// and one task per store, however many keys are read.
    ///
    /// The default implementation follows every key (``Storable/changes()``); `follow` does
    /// nothing. A backend built on ``ChangeBroadcaster`` returns its
    /// ``ChangeBroadcaster/keySetSubscription()``.
    ///
    /// Thread-safety: called from any thread; `follow` and `end` too.
    func keySetSubscription() -> KeySetSubscription
}

extension ChangeSnapshotting {
    /// A subscription to every key's changes (``Storable/changes()``), whose `follow` does
    /// nothing: correct for any store, by key for none. It ends when its consumer stops.
    public func keySetSubscription() -> KeySetSubscription {
        KeySetSubscription(changes: changes(), follow: { _ in }, end: {})
    }
}

/// The changes to a set of keys that grows, from ``ChangeSnapshotting/keySetSubscription()``.
public struct KeySetSubscription: Sendable {
    /// Every change to a followed key after it was followed (changes to other keys may be
    /// delivered too).
    public var changes: AsyncStream<StoredChange>
    /// Adds a key: a change to it committed after this returns is delivered. Following a key
    /// twice, or after `end`, does nothing.
    public var follow: @Sendable (String) -> Void
    /// Ends `changes` and releases the subscription at once; safe to call more than once.
    /// (Some subscriptions end only when their consumer stops: cancel the consuming task too.)
    public var end: @Sendable () -> Void

    /// Creates a subscription from its parts.
    public init(
        changes: AsyncStream<StoredChange>, follow: @escaping @Sendable (String) -> Void,
        end: @escaping @Sendable () -> Void
    ) {
        self.changes = changes
        self.follow = follow
        self.end = end
    }
}

/// A key's value and the changes after it, from ``ChangeSnapshotting``.
public struct KeySubscription: Sendable {
    /// The value when the subscription began.
    public var value: StoredValue?
    /// Every change to the key after `value`.
    public var changes: AsyncStream<StoredChange>
    /// Ends `changes` and releases the subscription at once; safe to call more than once.
    public var end: @Sendable () -> Void

    /// Creates a subscription from its parts.
    public init(value: StoredValue?, changes: AsyncStream<StoredChange>, end: @escaping @Sendable () -> Void) {
        self.value = value
        self.changes = changes
        self.end = end
    }

    /// A subscription from a broadcaster's stream and continuation.
    public init(
        value: StoredValue?,
        _ subscription: (stream: AsyncStream<StoredChange>, continuation: AsyncStream<StoredChange>.Continuation)
    ) {
        let continuation = subscription.continuation
        self.init(value: value, changes: subscription.stream, end: { continuation.finish() })
    }
}
