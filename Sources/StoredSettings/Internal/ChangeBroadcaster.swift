/// Fans committed changes out to every ``Storable/changes()`` stream of one store.
///
/// Each subscriber gets its own `AsyncStream` with an unbounded buffer, so it sees every change
/// once, in the order ``publish(_:)`` was called. Stores call `publish` while they still hold
/// the lock under which they committed, which serialises the calls and fixes the order; `yield`
/// only enqueues (it resumes a waiting consumer on its own executor, never inline), so no
/// observer code runs under a store's lock.
///
/// A stream whose consumer stops (cancelled task, dropped iterator, dropped stream) removes
/// itself in `onTermination`. Cancellation runs that handler while the Swift runtime holds the
/// cancelled task's status lock, and `yield` takes the status lock of the task it resumes; so
/// this broadcaster's lock is only ever held for its own bookkeeping, and `yield` is called
/// after releasing it. Holding it across `yield` deadlocks against a concurrent cancellation.
///
/// Lock order: a store's locks, then this broadcaster's lock (released before yielding).
package final class ChangeBroadcaster: Sendable {
    private struct State {
        var nextID = 0
        var subscribers: [Int: AsyncStream<StoredChange>.Continuation] = [:]
    }

    private let state = Lock(State())

    package init() {}

    /// A new stream of every change published from now on.
    ///
    /// The subscription is in place when this returns: a change published afterwards is
    /// delivered. Call it under the store's commit lock to pair it atomically with a read.
    package func subscribe() -> AsyncStream<StoredChange> {
        let (stream, continuation) = AsyncStream<StoredChange>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.remove(id)
        }
        return stream
    }

    private func remove(_ id: Int) {
        // Take the continuation out under the lock, drop it after releasing it.
        let removed = state.withLock { $0.subscribers.removeValue(forKey: id) }
        _ = removed
    }

    /// Delivers `changes`, in order, to every current subscriber.
    ///
    /// Callers serialise their calls (they hold the store's commit lock), which keeps every
    /// subscriber's sequence in commit order.
    package func publish(_ changes: some Collection<StoredChange>) {
        guard !changes.isEmpty else { return }
        let subscribers = state.withLock { state in
            state.subscribers.isEmpty ? [] : Array(state.subscribers.values)
        }
        // Outside the lock: see the type's documentation.
        for continuation in subscribers {
            for change in changes { continuation.yield(change) }
        }
    }

    /// Delivers one change to every current subscriber.
    package func publish(_ change: StoredChange) {
        publish(CollectionOfOne(change))
    }

    /// How many streams are subscribed now.
    package var subscriberCount: Int {
        state.withLock { $0.subscribers.count }
    }

    /// Ends every stream (when the store goes away).
    package func finishAll() {
        let subscribers = state.withLock { state in
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for continuation in subscribers { continuation.finish() }
    }

    deinit {
        for continuation in state.withLock({ Array($0.subscribers.values) }) { continuation.finish() }
    }
}

/// A store that can read a key and subscribe to its changes as one step, so no change falls
/// between the read and the subscription, and none is counted on both sides.
///
/// ``Stored/updates`` uses it when the store conforms; for other stores it subscribes first
/// and reads second, which may repeat a change that raced with the read.
package protocol ChangeSnapshotting: Storable {
    /// The value of `key` now, and a stream of every change committed after that read.
    func changes(readingValueForKey key: String) -> (value: StoredValue?, changes: AsyncStream<StoredChange>)
}
