/// Fans committed changes out to every ``Storable/changes()`` stream of one store.
///
/// Each stream has an unbounded buffer and sees every change once, in the order `publish(_:)`
/// was called. A backend returns ``subscribe(key:)`` from `changes()` and calls `publish(_:)`
/// while still holding the lock it committed under, which fixes the order; `yield` only
/// enqueues, so no observer code runs under that lock (<doc:ImplementingABackend>).
///
/// Lock order: a store's locks, then this broadcaster's, which is released before `yield`:
/// cancellation runs `onTermination` under the task's status lock, which `yield` takes too.
///
/// Thread-safety: every member may be used from any thread or task.
public final class ChangeBroadcaster: Sendable {
    private typealias Continuation = AsyncStream<StoredChange>.Continuation
    fileprivate typealias Handler = @Sendable (StoredChange) -> Void

    private struct State {
        var nextID = 0
        /// Subscribers of every key.
        var everyKey: [Int: Continuation] = [:]
        /// Subscribers of one key, by key: a publish touches only those of its keys.
        var byKey: [String: [Int: Continuation]] = [:]
        /// Subscribers of a set of keys (``keySetSubscription(onChange:)``), by the keys they follow.
        var followers: [String: [Int: Handler]] = [:]
        /// The keys each subscriber of a set of keys follows.
        var keySets: [Int: Set<String>] = [:]
        var count = 0

        /// The subscribers a change of `key` goes to.
        func subscribers(of key: String) -> [Continuation] {
            guard let keyed = byKey[key] else { return Array(everyKey.values) }
            return Array(everyKey.values) + Array(keyed.values)
        }

        var all: [Continuation] {
            Array(everyKey.values) + byKey.values.flatMap(\.values)
        }

        /// Removes every subscriber.
        mutating func removeAll() {
            everyKey.removeAll()
            byKey.removeAll()
            followers.removeAll()
            keySets.removeAll()
            count = 0
        }
    }

    /// The calls to subscribers of a set of keys that a publish collected, to be made once the
    /// publisher holds no lock: they run observers' code, which may read and write the store.
    struct Announcements: Sendable {
        fileprivate var calls: [(Handler, StoredChange)] = []

        init() {}

        /// Adds `other`'s calls after these.
        mutating func append(contentsOf other: Announcements) {
            calls += other.calls
        }

        /// Whether there is no call to make.
        var isEmpty: Bool { calls.isEmpty }

        /// Makes the calls, in publish order, once the calling thread runs no `update` body
        /// (``UpdateScope/deliverOutsideUpdateBodies(_:)``).
        func deliver() {
            guard !calls.isEmpty else { return }
            UpdateScope.deliverOutsideUpdateBodies(self)
        }

        /// Makes the calls now, in publish order.
        func makeCalls() {
            for (handler, change) in calls { handler(change) }
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
    /// The subscription is in place when this returns; call it under the store's commit lock
    /// to pair it atomically with a read.
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

    /// Calls `onChange` with each change to the keys passed to the subscription's `follow`
    /// (none at first), with no stream or task: ``publishing(_:)`` returns the calls for its
    /// caller to make once it holds no lock. `end` removes the subscription at once.
    func keySetSubscription(onChange: @escaping @Sendable (StoredChange) -> Void) -> KeySetSubscription {
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.keySets[id] = []
            state.count += 1
            return id
        }
        mirroredCount.withLock { $0 += 1 }
        return KeySetSubscription(
            follow: { [weak self] key in
                self?.state.withLock { state in
                    // Nothing once the subscription ended; nothing more for a key it follows.
                    guard state.keySets[id]?.insert(key).inserted == true else { return }
                    state.followers[key, default: [:]][id] = onChange
                }
            },
            end: { [weak self] in self?.remove(id, key: nil) })
    }

    private func remove(_ id: Int, key: String?) {
        // Take the continuations out under the lock, drop them after releasing it.
        let removed: [Continuation]? = state.withLock { state in
            var removed: [Continuation] = []
            if let key {
                if let continuation = state.byKey[key]?.removeValue(forKey: id) { removed.append(continuation) }
                if state.byKey[key]?.isEmpty == true { state.byKey[key] = nil }
            } else if let keys = state.keySets.removeValue(forKey: id) {
                for key in keys {
                    state.followers[key]?.removeValue(forKey: id)
                    if state.followers[key]?.isEmpty == true { state.followers[key] = nil }
                }
                state.count -= 1
                return nil
            } else if let continuation = state.everyKey.removeValue(forKey: id) {
                removed.append(continuation)
            }
            if !removed.isEmpty { state.count -= 1 }
            return removed
        }
        if removed?.isEmpty != true { mirroredCount.withLock { $0 -= 1 } }
    }

    /// The keys that subscribers of one key follow, or `nil` while a subscriber follows every
    /// key: what a store that must look for changes itself needs to compare.
    var followedKeys: Set<String>? {
        state.withLock { $0.everyKey.isEmpty ? Set($0.byKey.keys).union($0.followers.keys) : nil }
    }

    /// Delivers `changes`, in order, to every current stream of their keys.
    ///
    /// Call it under the store's commit lock, which keeps every stream in commit order.
    ///
    /// - Returns: How many streams were subscribed when the changes were handed out.
    @discardableResult
    public func publish(_ changes: some Collection<StoredChange>) -> Int {
        let (count, announcements) = publishing(changes)
        // Subscribers of a set of keys are made only by stores that call `publishing(_:)`.
        assert(announcements.calls.isEmpty, "publish(_:) on a store with key-set subscribers")
        return count
    }

    /// ``publish(_:)``, also returning the calls to make to subscribers of a set of keys
    /// (``keySetSubscription(onChange:)``) once the caller holds no lock.
    func publishing(_ changes: some Collection<StoredChange>) -> (count: Int, announcements: Announcements) {
        guard !changes.isEmpty else { return (subscriberCount, Announcements()) }
        var announcements = Announcements()
        if changes.count == 1, let change = changes.first {
            let (subscribers, count) = state.withLock { state in
                guard state.count > 0 else { return ([Continuation](), 0) }
                if let followers = state.followers[change.key] {
                    announcements.calls = followers.values.map { ($0, change) }
                }
                return (state.subscribers(of: change.key), state.count)
            }
            // Outside the lock: see the type's documentation.
            for continuation in subscribers { continuation.yield(change) }
            return (count, announcements)
        }
        let (deliveries, count): ([(Continuation, StoredChange)], Int) = state.withLock { state in
            guard state.count > 0 else { return ([], 0) }
            var deliveries: [(Continuation, StoredChange)] = []
            for change in changes {
                for continuation in state.subscribers(of: change.key) { deliveries.append((continuation, change)) }
                if let followers = state.followers[change.key] {
                    announcements.calls += followers.values.map { ($0, change) }
                }
            }
            return (deliveries, state.count)
        }
        // Outside the lock, in order per subscriber.
        for (continuation, change) in deliveries { continuation.yield(change) }
        return (count, announcements)
    }

    /// How many streams are subscribed now; drops back when consumers stop.
    var subscriberCount: Int {
        state.withLock { $0.count }
    }

    /// Returns once exactly `target` streams are subscribed (at once when they are), or when
    /// the calling task is cancelled. Waits on the subscriptions' own events, never on a clock.
    func waitForSubscriberCount(_ target: Int) async {
        await mirroredCount.wait { $0 == target }
    }

    /// Ends every stream (when the store goes away).
    public func finishAll() {
        let (subscribers, ended) = state.withLock { state in
            defer { state.removeAll() }
            return (state.all, state.count)
        }
        mirroredCount.withLock { $0 -= ended }
        for continuation in subscribers { continuation.finish() }
    }

    deinit {
        for continuation in state.withLock({ $0.all }) { continuation.finish() }
    }
}
