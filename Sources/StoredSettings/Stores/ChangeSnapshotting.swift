/// A store that can read a key and subscribe to its changes as one step, so no change falls
/// between the read and the subscription, and none is counted on both sides.
///
/// ``Stored/updates`` uses it when the store conforms; for other stores it subscribes first
/// and reads second, which may repeat a change that raced with the read.
package protocol ChangeSnapshotting: Storable {
    /// The value of `key` now, and a stream of every change to `key` committed after that
    /// read (changes to other keys may be left out).
    func subscription(readingValueForKey key: String) -> KeySubscription
}

/// A key's value and the changes after it, from ``ChangeSnapshotting``.
package struct KeySubscription: Sendable {
    /// The value when the subscription began.
    package var value: StoredValue?
    /// Every change to the key after `value`.
    package var changes: AsyncStream<StoredChange>
    /// Ends `changes` and releases the subscription at once; safe to call more than once.
    package var end: @Sendable () -> Void

    package init(value: StoredValue?, changes: AsyncStream<StoredChange>, end: @escaping @Sendable () -> Void) {
        self.value = value
        self.changes = changes
        self.end = end
    }

    /// A subscription from a broadcaster's stream and continuation.
    package init(
        value: StoredValue?,
        _ subscription: (stream: AsyncStream<StoredChange>, continuation: AsyncStream<StoredChange>.Continuation)
    ) {
        let continuation = subscription.continuation
        self.init(value: value, changes: subscription.stream, end: { continuation.finish() })
    }
}
