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
