/// A store that can read a key and subscribe to its changes as one step, so no change falls
/// between or is counted twice; ``Stored/updates`` uses it where the store conforms.
///
/// A backend conforms by reading and subscribing (``ChangeBroadcaster/subscription(key:)``)
/// under the lock its commits publish under.
public protocol ChangeSnapshotting: Storable {
    /// The value of `key` now, and a stream of every change to `key` committed after that
    /// read (changes to other keys may be left out).
    ///
    /// Thread-safety: called from any thread; the read and the subscription are one step.
    func subscription(readingValueForKey key: String) -> KeySubscription

    /// Calls `onChange` with each change to the keys passed to the subscription's `follow`,
    /// none at first: how Observation-tracked reads of ``Stored`` follow a store, one
    /// subscription per store.
    ///
    /// `onChange` runs after the commit, outside the store's locks, so it may read and write the
    /// store. The default implementation follows ``Storable/changes()`` on a task of its own.
    ///
    /// Thread-safety: called from any thread; `follow` and `end` too; `onChange` from any thread.
    func keySetSubscription(onChange: @escaping @Sendable (StoredChange) -> Void) -> KeySetSubscription
}

extension ChangeSnapshotting {
    /// Follows every key (``Storable/changes()``) on a detached task; `follow` does nothing.
    public func keySetSubscription(onChange: @escaping @Sendable (StoredChange) -> Void) -> KeySetSubscription {
        KeySetSubscription(following: changes(), onChange: onChange)
    }
}

/// A subscription to a set of keys that grows, from
/// ``ChangeSnapshotting/keySetSubscription(onChange:)``.
public struct KeySetSubscription: Sendable {
    /// Adds a key: a change to it committed after this returns is delivered. Following a key
    /// twice, or after `end`, does nothing.
    public var follow: @Sendable (String) -> Void
    /// Ends the subscription: no change committed after it returns is delivered. A call for an
    /// earlier change may still start: one the committing thread makes once it holds no lock
    /// (after an enclosing `update` body returns, say). Safe to call more than once.
    public var end: @Sendable () -> Void

    /// Creates a subscription from its parts.
    public init(follow: @escaping @Sendable (String) -> Void, end: @escaping @Sendable () -> Void) {
        self.follow = follow
        self.end = end
    }

    /// Calls `onChange` with every element of `changes` on a detached task (no inherited
    /// task-local store) until the stream ends or `end` is called; `follow` does nothing.
    public init(following changes: AsyncStream<StoredChange>, onChange: @escaping @Sendable (StoredChange) -> Void) {
        let task = Task.detached {
            for await change in changes { onChange(change) }
        }
        self.init(follow: { _ in }, end: { task.cancel() })
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
    init(
        value: StoredValue?,
        _ subscription: (stream: AsyncStream<StoredChange>, continuation: AsyncStream<StoredChange>.Continuation)
    ) {
        let continuation = subscription.continuation
        self.init(value: value, changes: subscription.stream, end: { continuation.finish() })
    }
}
