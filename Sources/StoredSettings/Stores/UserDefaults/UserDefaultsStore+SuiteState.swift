import Foundation

/// Holds a `UserDefaults`, which Foundation on Linux does not mark `Sendable`.
struct DefaultsBox: @unchecked Sendable {
    // Safe: `UserDefaults` is documented thread-safe (and `Sendable` on Apple platforms); the
    // box only holds the reference.
    let defaults: UserDefaults
    /// The name of the persistent domain the store writes (see ``UserDefaultsStore/domainName``).
    let domainName: String
    /// Whether ``domainName`` is known to be the domain the instance writes.
    var isDomainKnown = true

    /// A notification observer token (an unannotated `NSObjectProtocol`).
    struct Token: @unchecked Sendable {
        // Safe: an immutable opaque handle, only passed back to the thread-safe
        // `NotificationCenter.removeObserver(_:)`.
        let object: any NSObjectProtocol
        init(_ object: any NSObjectProtocol) { self.object = object }
    }
}

/// The lock, change streams and `UserDefaults` instance shared by every store of this process
/// on one suite; the registry holds it weakly, so it lives while a store uses it.
final class SuiteState: Sendable {
    /// Serialises every write and `update` of the suite's stores (see ``withWriters(_:)``).
    private let writers = Lock(0)
    /// The suite's mark in ``UpdateScope`` on the thread that holds ``writers``.
    var holdingWriters: [String] { ["writers of suite " + UpdateScope.medium(self)] }
    let broadcaster = ChangeBroadcaster()
    let defaults: DefaultsBox
    /// Whether the values reads found were stored or only registered (see
    /// ``storedValue(forKey:)``).
    let provenance = Lock(Provenance())

    /// What the notification watcher knows, while someone is subscribed.
    private struct Watch: Sendable {
        /// The values last seen for the keys; `nil` until the first subscription.
        var seen: [String: StoredValue]?
        /// The value last published for each key, so a commit and the watcher never both
        /// publish it.
        var published: [String: StoredValue?] = [:]
        /// Counts commits through stores, so a watcher that read before one landed reads again.
        var commits: UInt64 = 0
        var token: DefaultsBox.Token?
        /// Calls to subscribers of a set of keys, made once the publisher holds no lock.
        var announcements = ChangeBroadcaster.Announcements()

        /// Publishes `changes`, keeping key-set subscribers' calls for ``deliverAnnouncements()``.
        mutating func publish(_ changes: some Collection<StoredChange>, through broadcaster: ChangeBroadcaster) {
            announcements.append(contentsOf: broadcaster.publishing(changes).announcements)
        }
    }

    /// Every publication happens under this lock, taken last (no other lock is taken while it
    /// is held), so it serialises the two publishers.
    private let watch = Lock(Watch())
    /// The lock between processes that batches of the suite take (see
    /// ``UserDefaultsStore/batch(_:)``), made on first use.
    private let lockFile = Lock<FileLock?>(nil)

    /// The suite's lock between processes, a lock file at `path`; its folder is made if missing.
    func batchLock(path: String) -> FileLock {
        lockFile.withLock { lock in
            if let lock { return lock }
            try? FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let made = FileLock(path: path)
            lock = made
            return made
        }
    }

    /// How many times a change notification made the watcher read the whole defaults.
    let notificationReads = Lock<Int>(0)
    #if canImport(ObjectiveC)
    /// The key-value observers of single keys, by key (see `observeOtherProcesses(forKey:)`).
    let keyObservers = Lock<[String: KeyObserver]>([:])
    #endif

    private struct WeakState: Sendable {
        weak var state: SuiteState?
    }

    private static let registry = Lock<[String: WeakState]>([:])

    private init(defaults: DefaultsBox) {
        self.defaults = defaults
    }

    /// Runs `body` holding the suite's writers' lock, not taken again by its holder: Apple's
    /// Foundation posts `didChangeNotification` inside `set`, where an observer may write.
    func withWriters<R>(_ body: () throws -> R) rethrows -> R {
        if UpdateScope.isInsideUpdateBody(of: holdingWriters) { return try body() }
        // After the lock: observers may read and write the suite.
        defer { deliverAnnouncements() }
        return try UpdateScope.holdingAnnouncements {
            try writers.withLock { _ in try UpdateScope.runMarked(holdingWriters, key: nil, body) }
        }
    }

    /// Whether a store of this process uses the suite named `name` now.
    static func isShared(name: String) -> Bool {
        registry.withLock { $0[name]?.state != nil }
    }

    /// The state of the suite named `name`, created with `defaults()` when no store uses it.
    static func shared(for name: String, defaults: () throws -> DefaultsBox) rethrows -> SuiteState {
        try registry.withLock { registry in
            if let state = registry[name]?.state { return state }
            // Entries of released suites are dropped whenever a suite is created.
            registry = registry.filter { $0.value.state != nil }
            let box = try defaults()
            let state = SuiteState(defaults: box)
            registry[name] = WeakState(state: state)
            return state
        }
    }

    /// A new change stream of every key.
    func subscribe() -> AsyncStream<StoredChange> {
        subscription(key: nil).stream
    }

    /// A new change stream and its continuation; starts watching the defaults for writes by
    /// other code.
    func subscription(key: String?) -> (
        stream: AsyncStream<StoredChange>, continuation: AsyncStream<StoredChange>.Continuation
    ) {
        startWatching()
        #if canImport(ObjectiveC)
        if let key { observeOtherProcesses(forKey: key) }
        #endif
        defer { if let key { refreshSeen(forKey: key) } }
        // Only followed keys were compared so far: update the others, so an observer of every
        // key gets no change made before it.
        if key == nil, let followed = broadcaster.followedKeys {
            let current = currentValues()
            watch.withLock { watch in
                let known = Set(current.keys).union(watch.seen.map { Set($0.keys) } ?? [])
                for key in known where !followed.contains(key) {
                    watch.seen?[key] = current[key]
                }
            }
        }
        return broadcaster.subscription(key: key)
    }

    /// Calls `onChange` with the changes to the followed keys; starts watching the defaults
    /// (and on Apple platforms each followed key in other processes).
    func keySetSubscription(onChange: @escaping @Sendable (StoredChange) -> Void) -> KeySetSubscription {
        startWatching()
        var subscription = broadcaster.keySetSubscription(onChange: onChange)
        let follow = subscription.follow
        // Weakly: the subscription may outlive every store of the suite.
        subscription.follow = { [weak self] key in
            #if canImport(ObjectiveC)
            self?.observeOtherProcesses(forKey: key)
            #endif
            follow(key)
            self?.refreshSeen(forKey: key)
        }
        return subscription
    }

    /// Records `key`'s value now as last seen: unfollowed keys were not compared, so a change
    /// back to the stale value would go unseen.
    private func refreshSeen(forKey key: String) {
        let value = storedValue(forKey: key)
        watch.withLock { $0.seen?[key] = value }
    }

    /// Notes a commit about to be made through a store, so the watcher does not deliver it.
    func willCommit(_ value: StoredValue?, forKey key: String) {
        watch.withLock { watch in
            watch.commits &+= 1
            if watch.seen != nil { watch.seen?[key] = value }
        }
    }

    /// Publishes a store's commit as reads see it now (a removal may uncover a registered or
    /// argument value), unless the watcher delivered it already.
    func didCommit(visible value: StoredValue?, forKey key: String) {
        watch.withLock { watch in
            if watch.seen != nil {
                watch.seen?[key] = value
                if let last = watch.published[key], last.isIdentical(to: value) { return }
                watch.published[key] = value
            }
            watch.publish(CollectionOfOne(StoredChange(key: key, value: value)), through: broadcaster)
        }
    }

    /// Makes the key-set subscribers' calls that publications kept back.
    private func deliverAnnouncements() {
        watch.withLock { watch in
            defer { watch.announcements = ChangeBroadcaster.Announcements() }
            return watch.announcements
        }.deliver()
    }

    private func startWatching() {
        withWriters {
            let needsObserver = watch.withLock { watch in
                if watch.seen == nil { watch.seen = currentValues() }
                return watch.token == nil
            }
            guard needsObserver else { return }
            // This suite's instance only, so another suite's change never wakes it.
            let token = NotificationCenter.default.addObserver(
                forName: UserDefaults.didChangeNotification, object: defaults.defaults, queue: nil
            ) { [weak self] _ in
                self?.defaultsDidChange()
            }
            watch.withLock { $0.token = DefaultsBox.Token(token) }
        }
    }

    /// Delivers one change per key whose value differs from the last one seen. Runs on the
    /// thread that changed the defaults, which may hold any lock: so it reads with no lock
    /// held, compares under ``watch`` alone, and reads again when a commit came in between.
    func defaultsDidChange() {
        forgetProvenance(forKey: nil)
        for _ in 0..<16 {
            let commits = watch.withLock { $0.commits }
            // Only the followed keys when no one follows every key: AppKit writes often.
            let followed = broadcaster.followedKeys
            let current = followed.map(values(forKeys:)) ?? currentValues()
            let done = watch.withLock { watch -> Bool in
                guard let seen = watch.seen else { return true }
                guard watch.commits == commits else { return false }
                var changes: [StoredChange] = []
                if let followed {
                    for key in followed where !seen[key].isIdentical(to: current[key]) {
                        changes.append(StoredChange(key: key, value: current[key]))
                        watch.seen?[key] = current[key]
                    }
                    for change in changes { watch.published[change.key] = change.value }
                    watch.publish(changes, through: broadcaster)
                    return true
                }
                for key in seen.keys where current[key] == nil {
                    changes.append(StoredChange(key: key, value: nil))
                }
                for (key, new) in current where !(seen[key].map { $0.isIdentical(to: new) } ?? false) {
                    changes.append(StoredChange(key: key, value: new))
                }
                watch.seen = current
                for change in changes { watch.published[change.key] = change.value }
                watch.publish(changes, through: broadcaster)
                return true
            }
            if done { break }
        }
        // A write of this suite delivers when it ends.
        if !UpdateScope.isInsideUpdateBody(of: holdingWriters) { deliverAnnouncements() }
    }

    /// The stored values of `keys` (registered defaults left out), read one by one.
    private func values(forKeys keys: Set<String>) -> [String: StoredValue] {
        var values: [String: StoredValue] = [:]
        for key in keys {
            values[key] = storedValue(forKey: key)
        }
        return values
    }

    /// Every stored value of the suite, from `dictionaryRepresentation()`; counted in
    /// ``notificationReads``.
    private func currentValues() -> [String: StoredValue] {
        notificationReads.withLock { $0 += 1 }
        // Registered defaults are in the representation; the store does not return them.
        let stored = defaults.storedKeys()
        return defaults.defaults.dictionaryRepresentation().filter { stored?.contains($0.key) ?? true }
            .compactMapValues(PropertyListValue.storedValue(from:))
    }

    deinit {
        #if canImport(ObjectiveC)
        removeKeyObservers()
        #endif
        if let token = watch.withLock({ $0.token }) {
            NotificationCenter.default.removeObserver(token.object)
        }
    }
}
