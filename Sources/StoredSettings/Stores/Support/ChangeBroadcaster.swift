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
    typealias Handler = @Sendable (StoredChange) -> Void

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

    private let state = Lock(Subscribers())
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
        let id = state.withLock { $0.add(continuation, key: key) }
        mirroredCount.withLock { $0 += 1 }
        continuation.onTermination = { [weak self] _ in
            self?.remove(id, key: key)
        }
        return (stream, continuation)
    }

    /// Calls `onChange` with each change to the keys passed to the subscription's `follow`
    /// (none at first), with no stream or task: ``publishing(_:)`` returns the calls for its
    /// caller to make once it holds no lock. `end` removes the subscription at once.
    func keySetSubscription(onChange: @escaping Handler) -> KeySetSubscription {
        let id = state.withLock { $0.addKeySet() }
        mirroredCount.withLock { $0 += 1 }
        return KeySetSubscription(
            follow: { [weak self] key in self?.state.withLock { $0.follow(key, id: id, onChange: onChange) } },
            end: { [weak self] in self?.remove(id, key: nil) })
    }

    private func remove(_ id: Int, key: String?) {
        // What the subscription held is released after the lock.
        let (removed, released) = state.withLock { $0.remove(id, key: key) }
        if removed { mirroredCount.withLock { $0 -= 1 } }
        withExtendedLifetime(released) {}
    }

    /// The keys that subscribers of one key follow, or `nil` while a subscriber follows every
    /// key: what a store that must look for changes itself needs to compare.
    var followedKeys: Set<String>? {
        state.withLock { $0.followedKeys }
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
        let (deliveries, announcements, count) = state.withLock { state in
            let (deliveries, announcements) = state.deliveries(of: changes)
            return (deliveries, announcements, state.count)
        }
        // Outside the lock (see the type's documentation), in order per subscriber.
        for delivery in deliveries { delivery.continuation.yield(delivery.change) }
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

extension ChangeBroadcaster {
    /// The subscribers of one store's changes, kept under a lock of their owner: a
    /// broadcaster's own, or a ``FileStore``'s memory lock, so that its commits publish under
    /// the lock they commit under and take no other.
    struct Subscribers: Sendable {
        typealias Continuation = AsyncStream<StoredChange>.Continuation

        private var nextID = 0
        /// Subscribers of every key.
        private var everyKey: [Int: Continuation] = [:]
        /// Subscribers of one key, by key: a publish touches only those of its keys.
        private var byKey: [String: [Int: Continuation]] = [:]
        /// Subscribers of a set of keys, by the keys they follow.
        private var followers: [String: [Int: Handler]] = [:]
        /// The keys each subscriber of a set of keys follows.
        private var keySets: [Int: Set<String>] = [:]
        /// How many subscriptions there are.
        private(set) var count = 0

        /// Adds a stream's `continuation` (of `key`'s changes, or of every key's); its id.
        mutating func add(_ continuation: Continuation, key: String?) -> Int {
            defer { nextID += 1 }
            if let key {
                byKey[key, default: [:]][nextID] = continuation
            } else {
                everyKey[nextID] = continuation
            }
            count += 1
            return nextID
        }

        /// Adds a subscriber of a set of keys, following none yet; its id.
        mutating func addKeySet() -> Int {
            defer { nextID += 1 }
            keySets[nextID] = []
            count += 1
            return nextID
        }

        /// Makes the subscriber `id` of a set of keys follow `key`: nothing once it ended, nothing
        /// more for a key it follows.
        mutating func follow(_ key: String, id: Int, onChange: @escaping Handler) {
            guard keySets[id]?.insert(key).inserted == true else { return }
            followers[key, default: [:]][id] = onChange
        }

        /// Removes subscription `id` (`key`: a stream's key, if it has one); whether it was
        /// there, and what it held, for the caller to release once it holds no lock: releasing a
        /// handler may run a `deinit` that uses the store.
        mutating func remove(
            _ id: Int, key: String?
        ) -> (removed: Bool, released: (continuations: [Continuation], handlers: [Handler])) {
            var continuations: [Continuation] = []
            var handlers: [Handler] = []
            if let key {
                if let continuation = byKey[key]?.removeValue(forKey: id) { continuations.append(continuation) }
                if byKey[key]?.isEmpty == true { byKey[key] = nil }
            } else if let keys = keySets.removeValue(forKey: id) {
                for key in keys {
                    if let handler = followers[key]?.removeValue(forKey: id) { handlers.append(handler) }
                    if followers[key]?.isEmpty == true { followers[key] = nil }
                }
                count -= 1
                return (true, ([], handlers))
            } else if let continuation = everyKey.removeValue(forKey: id) {
                continuations.append(continuation)
            }
            if !continuations.isEmpty { count -= 1 }
            return (!continuations.isEmpty, (continuations, []))
        }

        /// The keys that subscribers of one key follow, or `nil` while a stream follows every key.
        var followedKeys: Set<String>? {
            everyKey.isEmpty ? Set(byKey.keys).union(followers.keys) : nil
        }

        /// A change to hand to a stream, with what ``remove(_:key:)`` needs to remove the stream.
        struct Delivery {
            let id: Int
            let key: String?
            let continuation: Continuation
            let change: StoredChange

            init(id: Int, key: String?, _ continuation: Continuation, _ change: StoredChange) {
                (self.id, self.key, self.continuation, self.change) = (id, key, continuation, change)
            }
        }

        /// The streams to hand each of `changes` to, in order, and the calls to make to
        /// subscribers of a set of keys.
        func deliveries(
            of changes: some Collection<StoredChange>
        ) -> (deliveries: [Delivery], announcements: Announcements) {
            var announcements = Announcements()
            guard count > 0 else { return ([], announcements) }
            var deliveries: [Delivery] = []
            for change in changes {
                for (id, continuation) in everyKey {
                    deliveries.append(Delivery(id: id, key: nil, continuation, change))
                }
                if let keyed = byKey[change.key] {
                    for (id, continuation) in keyed {
                        deliveries.append(Delivery(id: id, key: change.key, continuation, change))
                    }
                }
                // Appended one by one: no array per change to copy from.
                for handler in followers[change.key]?.values ?? [:].values {
                    announcements.calls.append((handler, change))
                }
            }
            return (deliveries, announcements)
        }

        /// Every stream's continuation.
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
}
