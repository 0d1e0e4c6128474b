/// Fans committed changes out to every ``Storable/changes()`` stream of one store.
///
/// Each subscriber gets its own `AsyncStream` with an unbounded buffer, so it sees every change
/// once, in the order `publish(_:)` was called. Stores call `publish` while they still hold
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
///
/// A backend of your own gets ``Storable/changes()`` from it: return ``subscribe(key:)`` from
/// `changes()`, and call `publish(_:)` with each committed change while still
/// holding the lock it committed under.
///
/// Thread-safety: every member may be used from any thread or task.
public final class ChangeBroadcaster: Sendable {
    private typealias Continuation = AsyncStream<StoredChange>.Continuation

    private struct State {
        var nextID = 0
        /// Subscribers of every key.
        var everyKey: [Int: Continuation] = [:]
        /// Subscribers of one key, by key: a publish touches only those of its keys.
        var byKey: [String: [Int: Continuation]] = [:]
        /// Subscribers of a set of keys (``keySetSubscription()``) and the keys each follows; each
        /// is in ``byKey`` under every key of its set.
        var keySets: [Int: (continuation: Continuation, keys: Set<String>)] = [:]
        var count = 0

        /// The subscribers a change of `key` goes to.
        func subscribers(of key: String) -> [Continuation] {
            guard let keyed = byKey[key] else { return Array(everyKey.values) }
            return Array(everyKey.values) + Array(keyed.values)
        }

        var all: [Continuation] {
            Array(everyKey.values) + byKey.values.flatMap(\.values) + keySets.values.map(\.continuation)
        }
    }

    private let state = Lock(State())
    /// The number of subscribers, mirrored for ``waitForSubscriberCount(_:)``: updated after
    /// each change of `state.count`, by the same amount.
    private let mirroredCount = AwaitableState(0)

    /// Creates a broadcaster with no subscribers.
    public init() {}

    /// A new stream of every change published from now on; only those of `key` when given.
    ///
    /// The subscription is in place when this returns: a change published afterwards is
    /// delivered. Call it under the store's commit lock to pair it atomically with a read.
    /// A key filter spares the subscriber the wake-ups for other keys, and the publisher the
    /// work of passing them over.
    public func subscribe(key: String? = nil) -> AsyncStream<StoredChange> {
        subscription(key: key).stream
    }

    /// Like ``subscribe(key:)``, also returning the stream's continuation: `finish()` on it ends
    /// the stream and removes the subscription at once, even while no task is consuming it.
    public func subscription(key: String? = nil) -> (
        stream: AsyncStream<StoredChange>, continuation: AsyncStream<StoredChange>.Continuation
    ) {
        let (stream, continuation) = AsyncStream<StoredChange>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            if let key {
                state.byKey[key, default: [:]][id] = continuation
            } else {
                state.everyKey[id] = continuation
            }
            state.count += 1
            return id
        }
        mirroredCount.withLock { $0 += 1 }
        continuation.onTermination = { [weak self] _ in
            self?.remove(id, key: key)
        }
        return (stream, continuation)
    }

    /// A stream of the changes to the keys passed to its `follow`, none at first: one subscriber
    /// however many keys it follows, and, unlike ``subscribe(key:)`` without a key, a follower
    /// of each key alone, so a store that must look for changes itself compares only those keys.
    ///
    /// A key followed is in place when `follow` returns: a change of it published afterwards is
    /// delivered. `end` finishes the stream and removes the subscription at once.
    ///
    /// Thread-safety: called from any thread; `follow` and `end` too.
    public func keySetSubscription() -> KeySetSubscription {
        let (stream, continuation) = AsyncStream<StoredChange>.makeStream(bufferingPolicy: .unbounded)
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.keySets[id] = (continuation, [])
            state.count += 1
            return id
        }
        mirroredCount.withLock { $0 += 1 }
        continuation.onTermination = { [weak self] _ in
            self?.remove(id, key: nil)
        }
        return KeySetSubscription(
            changes: stream,
            follow: { [weak self] key in
                self?.state.withLock { state in
                    // Nothing once the subscription ended; nothing more for a key it follows.
                    guard state.keySets[id]?.keys.insert(key).inserted == true else { return }
                    state.byKey[key, default: [:]][id] = continuation
                }
            },
            end: { continuation.finish() })
    }

    private func remove(_ id: Int, key: String?) {
        // Take the continuations out under the lock, drop them after releasing it.
        let removed: [Continuation] = state.withLock { state in
            var removed: [Continuation] = []
            if let key {
                if let continuation = state.byKey[key]?.removeValue(forKey: id) { removed.append(continuation) }
                if state.byKey[key]?.isEmpty == true { state.byKey[key] = nil }
            } else if let keySet = state.keySets.removeValue(forKey: id) {
                removed.append(keySet.continuation)
                for key in keySet.keys {
                    state.byKey[key]?.removeValue(forKey: id)
                    if state.byKey[key]?.isEmpty == true { state.byKey[key] = nil }
                }
            } else if let continuation = state.everyKey.removeValue(forKey: id) {
                removed.append(continuation)
            }
            if !removed.isEmpty { state.count -= 1 }
            return removed
        }
        if !removed.isEmpty { mirroredCount.withLock { $0 -= 1 } }
    }

    /// The keys that subscribers of one key follow, or `nil` while a subscriber follows every
    /// key: what a store that must look for changes itself needs to compare.
    package var followedKeys: Set<String>? {
        state.withLock { $0.everyKey.isEmpty ? Set($0.byKey.keys) : nil }
    }

    /// Delivers `changes`, in order, to every current subscriber of their keys.
    ///
    /// Callers serialise their calls (they hold the store's commit lock), which keeps every
    /// subscriber's sequence in commit order.
    ///
    /// - Returns: How many streams were subscribed when the changes were handed out (a store
    ///   that skips publishing while none are keeps this as its upper bound).
    @discardableResult
    public func publish(_ changes: some Collection<StoredChange>) -> Int {
        guard !changes.isEmpty else { return subscriberCount }
        if changes.count == 1, let change = changes.first {
            let (subscribers, count) = state.withLock { state in
                (state.count == 0 ? [] : state.subscribers(of: change.key), state.count)
            }
            // Outside the lock: see the type's documentation.
            for continuation in subscribers { continuation.yield(change) }
            return count
        }
        let (deliveries, count): ([(Continuation, StoredChange)], Int) = state.withLock { state in
            guard state.count > 0 else { return ([], 0) }
            var deliveries: [(Continuation, StoredChange)] = []
            for change in changes {
                for continuation in state.subscribers(of: change.key) { deliveries.append((continuation, change)) }
            }
            return (deliveries, state.count)
        }
        // Outside the lock, in order per subscriber.
        for (continuation, change) in deliveries { continuation.yield(change) }
        return count
    }

    /// Delivers one change, as the collection form does.
    @discardableResult
    public func publish(_ change: StoredChange) -> Int {
        publish(CollectionOfOne(change))
    }

    /// How many streams are subscribed now; drops back when consumers stop.
    public var subscriberCount: Int {
        state.withLock { $0.count }
    }

    /// Returns once exactly `target` streams are subscribed (at once when they are), or when
    /// the calling task is cancelled. Waits on the subscriptions' own events, never on a clock.
    public func waitForSubscriberCount(_ target: Int) async {
        await mirroredCount.wait { $0 == target }
    }

    /// Ends every stream (when the store goes away).
    public func finishAll() {
        let (subscribers, ended) = state.withLock { state in
            defer {
                state.everyKey.removeAll()
                state.byKey.removeAll()
                state.keySets.removeAll()
                state.count = 0
            }
            return (state.all, state.count)
        }
        mirroredCount.withLock { $0 -= ended }
        for continuation in subscribers { continuation.finish() }
    }

    deinit {
        for continuation in state.withLock({ $0.all }) { continuation.finish() }
    }
}
