import Foundation
import StoredSettings

/// The local copy of every setting under the prefix, as of one etcd revision, and the
/// change delivery that keeps subscribers in step with it.
///
/// The watch and the store's own writes feed it; each change is applied once, in revision
/// order: an event at or below the revision already applied is skipped, so a resynchronising
/// range read and a watch that replays older events never deliver a change twice.
///
/// Thread-safety: every member may be used from any thread.
final class EtcdSnapshot: Sendable {
    struct Entry: Sendable {
        var value: StoredValue
        var modRevision: Int64
    }

    /// A thread in ``wait(forRevision:timeout:)``, woken once the snapshot reaches `revision`.
    struct RevisionWaiter: Sendable {
        let revision: Int64
        let wakeUp: DispatchSemaphore
    }

    struct State: Sendable {
        var entries: [String: Entry] = [:]
        var revision: Int64 = 0
        /// How many keys etcd held under the prefix at `revision`, settings or not (the prefix
        /// itself is a key no setting is named by), for ``EtcdSession/catchUp()``.
        var etcdKeyCount = 0
        /// Whether the entries come from the snapshot cache, not yet from etcd: writes are
        /// refused, and the next range read replaces them whatever its revision.
        var fromCache = false
        var waiters: [RevisionWaiter] = []
    }

    private let state = Lock(State())
    let broadcaster = ChangeBroadcaster()
    /// Since when the watch has had no connection, and who waits for that to change.
    let connection = EtcdConnectionState()
    /// `<prefix>/`: what etcd keys start with.
    let keyPrefix: String
    /// Where each new revision is saved, when the store keeps a snapshot cache.
    let cache: EtcdSnapshotCache?

    init(keyPrefix: String, cache: EtcdSnapshotCache?) {
        self.keyPrefix = keyPrefix
        self.cache = cache
    }

    /// What `body` reads of the state, under its lock.
    func read<R>(_ body: (State) -> R) -> R {
        state.withLock { body($0) }
    }

    /// Runs `body` with exclusive access to the state, then wakes the waiters whose revision
    /// it reached.
    func withState<R>(_ body: (inout State) throws -> R) rethrows -> R {
        let (result, reached): (R, [RevisionWaiter]) = try state.withLock { state in
            let result = try body(&state)
            guard !state.waiters.isEmpty else { return (result, []) }
            let revision = state.revision
            defer { state.waiters.removeAll { $0.revision <= revision } }
            return (result, state.waiters.filter { $0.revision <= revision })
        }
        for waiter in reached { waiter.wakeUp.signal() }
        return result
    }

    var revision: Int64 { read { $0.revision } }

    /// The setting's key for an etcd key under the prefix; `nil` for any other key.
    func settingKey(_ etcdKey: String) -> String? {
        guard etcdKey.hasPrefix(keyPrefix), etcdKey.count > keyPrefix.count else { return nil }
        return String(etcdKey.dropFirst(keyPrefix.count))
    }

    /// Applies one watch answer's events (all at revisions above `revision` are new), and
    /// publishes each change that alters a value.
    func apply(_ events: [(kv: Gateway.KeyValue, isDelete: Bool)]) {
        withState { state in
            let before = state.revision
            var changes: [StoredChange] = []
            for (kv, isDelete) in events where kv.modRevision > before {
                state.revision = max(state.revision, kv.modRevision)
                if isDelete { state.etcdKeyCount -= 1 } else if kv.version == 1 { state.etcdKeyCount += 1 }
                guard let key = settingKey(kv.key) else { continue }
                let new = isDelete ? nil : EtcdValue.decode(kv.value)
                if let change = Self.set(new, modRevision: kv.modRevision, forKey: key, in: &state) {
                    changes.append(change)
                }
            }
            // The save is queued before subscribers wake, so a flush after an event finds it.
            if state.revision > before { cache?.saveLater(state.entries, revision: state.revision) }
            if !changes.isEmpty { broadcaster.publish(changes) }
        }
    }

    /// Replaces every entry with a range read's key-values at `revision`, publishing the
    /// differences; ignored when the snapshot is already at or past `revision`, unless it
    /// comes from the cache (which may hold another incarnation's higher revision).
    func replace(with keyValues: [Gateway.KeyValue], revision: Int64) {
        withState { state in
            guard revision > state.revision || state.fromCache else { return }
            state.fromCache = false
            var seen: Set<String> = []
            var changes: [StoredChange] = []
            for kv in keyValues {
                guard let key = settingKey(kv.key) else { continue }
                seen.insert(key)
                if let change = Self.set(
                    EtcdValue.decode(kv.value), modRevision: kv.modRevision, forKey: key, in: &state)
                {
                    changes.append(change)
                }
            }
            for key in state.entries.keys where !seen.contains(key) {
                state.entries[key] = nil
                changes.append(StoredChange(key: key, value: nil))
            }
            state.revision = revision
            state.etcdKeyCount = keyValues.count
            cache?.saveLater(state.entries, revision: revision)
            if !changes.isEmpty { broadcaster.publish(changes) }
        }
    }

    /// Serves the cache's `entries` at `revision` until a range read replaces them.
    func serveCached(_ entries: [String: StoredValue], revision: Int64) {
        withState { state in
            state.entries = entries.mapValues { Entry(value: $0, modRevision: 0) }
            state.revision = revision
            state.fromCache = true
        }
    }

    private static func set(_ value: StoredValue?, modRevision: Int64, forKey key: String, in state: inout State)
        -> StoredChange?
    {
        let old = state.entries[key]?.value
        if let value {
            state.entries[key] = Entry(value: value, modRevision: modRevision)
        } else {
            state.entries[key] = nil
        }
        switch (old, value) {
        case (nil, nil): return nil
        case (let old?, let new?) where old.isIdentical(to: new): return nil
        default: return StoredChange(key: key, value: value)
        }
    }

    /// Blocks until the snapshot has reached `revision`, or for `timeout` seconds at most
    /// (measured on the monotonic clock, `DispatchTime`).
    ///
    /// - Returns: Whether it reached `revision`.
    func wait(forRevision revision: Int64, timeout: TimeInterval) -> Bool {
        let wakeUp = DispatchSemaphore(value: 0)
        let reached = withState { state in
            if state.revision >= revision { return true }
            state.waiters.append(RevisionWaiter(revision: revision, wakeUp: wakeUp))
            return false
        }
        if reached { return true }
        _ = wakeUp.wait(timeout: .now() + max(0, timeout))
        return withState { state in
            state.waiters.removeAll { $0.wakeUp === wakeUp }
            return state.revision >= revision
        }
    }

    /// Records that the watch lost (or regained, `nil`) its connection.
    func setDisconnected(_ since: Date?) {
        connection.set(since)
    }

    /// The value of `key` and the stream of its later changes, split exactly.
    func subscription(readingValueForKey key: String) -> KeySubscription {
        withState { state in
            let (changes, continuation) = broadcaster.subscription(key: key)
            return KeySubscription(value: state.entries[key]?.value, changes: changes, end: { continuation.finish() })
        }
    }
}

/// The etcd form of a setting's value: its JSON text, as a JSON settings file holds it.
enum EtcdValue {
    /// The compact JSON text of `value`.
    ///
    /// - Throws: `StorageError.Code.encodingFailed` for NaN or an infinity.
    static func encode(_ value: StoredValue) throws -> Data {
        try value.jsonData(pretty: false)
    }

    /// `bytes` read as JSON; text that is not JSON (a value put by hand, `etcdctl put app/theme
    /// dark`) is its string, and bytes that are not UTF-8 are data.
    static func decode(_ bytes: Data) -> StoredValue {
        if let value = try? StoredValue(jsonData: bytes) { return value }
        if let text = String(data: bytes, encoding: .utf8) { return .string(text) }
        return .data(bytes)
    }
}
