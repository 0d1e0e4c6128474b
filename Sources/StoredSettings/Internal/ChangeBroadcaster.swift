/// Fans committed changes out to every ``Storable/changes()`` stream of one store.
///
/// Each subscriber gets its own `AsyncStream` with an unbounded buffer, so it sees every change
/// once, in the order ``publish(_:)`` was called. Stores call `publish` while they still hold
/// the lock under which they committed, which fixes the order; `yield` only enqueues and never
/// runs subscriber code, so no observer runs under a store's lock. A stream whose consumer
/// stops (cancelled task, dropped iterator) removes itself.
package final class ChangeBroadcaster: Sendable {
    private struct State {
        var nextID = 0
        var subscribers: [Int: AsyncStream<StoredChange>.Continuation] = [:]
    }

    private let state = Lock(State())

    package init() {}

    /// A new stream of every change published from now on.
    package func subscribe() -> AsyncStream<StoredChange> {
        let (stream, continuation) = AsyncStream<StoredChange>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.subscribers[id] = continuation
            return id
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    /// Delivers `changes`, in order, to every current subscriber.
    package func publish(_ changes: some Collection<StoredChange>) {
        guard !changes.isEmpty else { return }
        state.withLock { state in
            for continuation in state.subscribers.values {
                for change in changes { continuation.yield(change) }
            }
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
