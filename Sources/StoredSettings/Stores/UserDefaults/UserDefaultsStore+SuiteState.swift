import Foundation

/// Holds a `UserDefaults`, which Foundation on Linux does not mark `Sendable`.
struct DefaultsBox: @unchecked Sendable {
    // Safe because `UserDefaults` is documented as thread-safe ("The UserDefaults class is
    // thread-safe", Apple's UserDefaults reference) and is `Sendable` on Apple platforms; the
    // box only stores the reference and never mutates it.
    let defaults: UserDefaults
    /// The name of the persistent domain the store writes (see ``UserDefaultsStore/domainName``).
    let domainName: String
    /// Whether ``domainName`` is the domain the instance writes: `false` for an instance passed
    /// in other than `UserDefaults.standard`, whose suite Foundation does not tell.
    var isDomainKnown = true

    /// A notification observer token, which `NotificationCenter` returns as an unannotated
    /// `NSObjectProtocol`.
    struct Token: @unchecked Sendable {
        // Safe because the token is an opaque handle that is only passed back to
        // `NotificationCenter.removeObserver(_:)`, which is thread-safe; it is never mutated.
        let object: any NSObjectProtocol
        init(_ object: any NSObjectProtocol) { self.object = object }
    }
}

/// The lock and change streams shared by every store of this process on one suite, and the
/// one `UserDefaults` instance they all use. It lives while a store uses it: the registry
/// holds it weakly, so a suite no store uses is released with its notification observer.
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
        /// The value last published for each key, by a store's commit or by the watcher, so
        /// neither publishes a change the other delivered already.
        var published: [String: StoredValue?] = [:]
        /// Counts the commits made through stores, so a watcher that read the defaults before
        /// one landed reads them again.
        var commits: UInt64 = 0
        var token: DefaultsBox.Token?
        /// Calls to subscribers of a set of keys, made once the publisher holds no lock.
        var announcements = ChangeBroadcaster.Announcements()

        /// Publishes `changes` through `broadcaster`, keeping the calls to subscribers of a set
        /// of keys for ``deliverAnnouncements()``.
        mutating func publish(_ changes: some Collection<StoredChange>, through broadcaster: ChangeBroadcaster) {
            announcements.append(contentsOf: broadcaster.publishing(changes).announcements)
        }
    }

    /// Every publication happens under this lock, which is taken last (no other lock of the
    /// package is taken while it is held), so it serialises the two publishers.
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

    /// Runs `body` holding the suite's writers' lock, which a thread holding it already does
    /// not take again: Foundation on Apple platforms posts `didChangeNotification` from inside
    /// `UserDefaults.set`, so an app's observer may write the suite from within a write. (A
    /// write from an `update` body is refused before it gets here, by ``UpdateScope``.)
    func withWriters<R>(_ body: () throws -> R) rethrows -> R {
        if UpdateScope.isInsideUpdateBody(of: holdingWriters) { return try body() }
        // Outside the lock: observers' code may read and write the suite.
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
        // While only single keys were followed, notifications compared only those: bring the
        // others up to date first, so an observer of every key gets no change made before it.
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

    /// Calls `onChange` with the changes to the keys passed to the subscription's `follow`;
    /// starts watching the defaults for writes by other code, and on Apple platforms each key
    /// followed for other processes'.
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

    /// Records `key`'s value now as the last one seen, once the key is followed: while nobody
    /// followed it, notifications did not compare it, and a change back to the stale value
    /// would otherwise go unseen.
    private func refreshSeen(forKey key: String) {
        let value = storedValue(forKey: key)
        watch.withLock { $0.seen?[key] = value }
    }

    /// Notes a commit about to be made through a store, so the watcher does not deliver it
    /// again.
    func willCommit(_ value: StoredValue?, forKey key: String) {
        watch.withLock { watch in
            watch.commits &+= 1
            if watch.seen != nil { watch.seen?[key] = value }
        }
    }

    /// Publishes a store's commit as reads see it now (`visible`: a removal may uncover a
    /// registered default or an argument), unless the watcher delivered that value for the key
    /// already.
    func didCommit(visible value: StoredValue?, forKey key: String) {
        watch.withLock { watch in
            if watch.seen != nil {
                watch.seen?[key] = value
                if let last = watch.published[key], Self.identical(last, value) { return }
                watch.published[key] = value
            }
            watch.publish(CollectionOfOne(StoredChange(key: key, value: value)), through: broadcaster)
        }
    }

    /// Makes the calls to subscribers of a set of keys that publications kept back.
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
            // Only this suite's own instance: a change of another suite never wakes this one.
            let token = NotificationCenter.default.addObserver(
                forName: UserDefaults.didChangeNotification, object: defaults.defaults, queue: nil
            ) { [weak self] _ in
                self?.defaultsDidChange()
            }
            watch.withLock { $0.token = DefaultsBox.Token(token) }
        }
    }

    /// Delivers one change per key whose value differs from the last one seen. Called on the
    /// thread that changed the defaults, which may hold any lock (another suite's writers, in
    /// an `update` body that writes to other defaults): so it takes none of the writers' locks,
    /// reads the defaults with no lock held, and compares under ``watch`` alone. When a
    /// store's commit came in between, it reads again.
    func defaultsDidChange() {
        forgetProvenance(forKey: nil)
        for _ in 0..<16 {
            let commits = watch.withLock { $0.commits }
            // Only the keys observers follow, when none follows every key: AppKit changes the
            // standard defaults often, and converting all of them each time is the cost.
            let followed = broadcaster.followedKeys
            let current = followed.map(values(forKeys:)) ?? currentValues()
            let done = watch.withLock { watch -> Bool in
                guard let seen = watch.seen else { return true }
                guard watch.commits == commits else { return false }
                var changes: [StoredChange] = []
                if let followed {
                    for key in followed where !Self.identical(seen[key], current[key]) {
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
        // On the thread that changed the defaults; a write of this suite delivers when it ends.
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

    /// Every stored value of the suite, from the whole `dictionaryRepresentation()`; counted in
    /// ``notificationReads``.
    private func currentValues() -> [String: StoredValue] {
        notificationReads.withLock { $0 += 1 }
        // Registered defaults are in the representation; the store does not return them.
        let stored = defaults.storedKeys()
        return defaults.defaults.dictionaryRepresentation().filter { stored?.contains($0.key) ?? true }
            .compactMapValues(PropertyListValue.storedValue(from:))
    }

    private static func identical(_ a: StoredValue?, _ b: StoredValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): a.isIdentical(to: b)
        default: false
        }
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
