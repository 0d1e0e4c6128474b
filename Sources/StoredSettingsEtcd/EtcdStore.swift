public import Foundation
public import StoredSettings

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A store that keeps settings on an etcd cluster, shared by every process and machine that
/// opens the same prefix, and pushed to them live.
///
/// ```swift
/// let store = try EtcdStore(configuration: .init(endpoints: ["127.0.0.1:2379"], prefix: "daybook"))
/// let settings = DaybookSettings(store: store)
/// settings.pageSize = 5          // committed by etcd before the setter returns
/// ```
///
/// Setting `pageSize` is the etcd key `daybook/pageSize`, and its value is the setting's JSON
/// text, as a JSON settings file holds it: `etcdctl get --prefix daybook/` shows readable
/// values, and a value put with `etcdctl` is read like a hand-edited file (text that is not
/// JSON reads as a string). The store talks to etcd's v3 JSON gateway (`/v3/kv/range`,
/// `/v3/kv/put`, `/v3/kv/txn`, `/v3/kv/deleterange`, `/v3/watch`, `/v3/auth/authenticate`).
///
/// - Reads come from a local snapshot of the prefix that a watch keeps current: a read costs
///   what an in-memory read costs, and never waits for the network.
/// - A write returns once etcd has committed it, and once the snapshot holds it (so a read
///   after a write sees it); it is sent even when the snapshot already holds the value. A put
///   or delete is never sent twice: one that reached a member and got no answer throws
///   `StorageError.Code.outcomeUnknown`. ``update(forKey:_:)`` is atomic across every process and machine:
///   a transaction that compares the key's `mod_revision`, retried with the newer value when
///   another writer came first (`body` may then run more than once).
/// - ``changes()`` delivers every committed change under the prefix, whoever made it, once,
///   in revision order. After a lost connection the watch resumes after the last revision it
///   saw; when etcd has compacted that revision, the store reads the prefix again and delivers
///   the differences (in key order, as one batch). A member that loses its leader ends the
///   watch; with ``Configuration/progressNotifyInterval`` set, so does one that sends nothing
///   for 3 intervals (frozen, or a path that stopped answering), and without it, one that gives
///   no answer to a small read the store sends it after 5 s of silence; the watch then moves
///   on to the next endpoint, and requests ask an endpoint that gave no answer last.
/// - While no endpoint can be reached, reads serve the last snapshot (``disconnectedSince``
///   says since when), writes throw `StorageError.Code.io` and change nothing, and the watch
///   reconnects on its own, to any endpoint, with backoff.
/// - With ``Configuration/snapshotCacheFile`` set, the store keeps its last snapshot in that
///   file, and an open that reaches no endpoint serves it the same way instead of throwing,
///   until the cluster answers.
/// - Stores opened with equal configurations in one process share one snapshot and one watch
///   (a hundred stores on one prefix hold one copy of its values); the last one released stops
///   the watch and ends every stream of ``changes()``.
///
/// Limitations: NaN and infinities (JSON has no form for them); a write whose request exceeds
/// ``Configuration/maximumRequestBytes`` throws `StorageError.Code.tooLarge`.
///
/// Thread-safety: every member may be used from any thread or task. The watch runs on a
/// thread of its own, told to stop when the store is released; releasing never waits for it.
public final class EtcdStore: Storable, OriginDescribingStore, ChangeSnapshotting {
    /// What the store was opened with, its timeouts and delays clamped into
    /// ``Configuration/timeoutRange``.
    public let configuration: EtcdStore.Configuration
    /// The client, snapshot and watch this store shares with every open store of its
    /// configuration in the process.
    let session: EtcdSession
    var client: EtcdClient { session.client }
    var snapshot: EtcdSnapshot { session.snapshot }
    var watcher: EtcdWatcher { session.watcher }
    /// Serialises this store's own writes, so its updates do not race each other to etcd, and
    /// holds the revision of the last write it committed. (The state is not empty on purpose:
    /// ThreadSanitizer reports access to a zero-sized state at the object's own address, where
    /// another thread reads the object's header, as a race.)
    let writers = Lock<Int64>(0)

    /// Opens the store: signs in when a user is configured, reads every setting under the
    /// prefix, and starts the watch.
    ///
    /// It tries the endpoints in rounds for at most ``Configuration/connectionTimeout`` seconds:
    /// a round's read waits a quarter of that (each later round twice as long as the one
    /// before, at most ``Configuration/requestTimeout``), and rounds are separated by a pause
    /// of 50 ms growing to 0.5 s, jittered, so that a fleet opening at once on a busy cluster
    /// waits its turn. With ``Configuration/snapshotCacheFile``
    /// set, the snapshot is saved there before the open returns; and when the first round
    /// reaches no endpoint and the file holds a snapshot of the same endpoints and prefix, the
    /// store serves it at once instead (``disconnectedSince`` set, writes refused, a report to
    /// `StorageErrorReporter`) and reads etcd's once an endpoint answers.
    ///
    /// While another store with an equal configuration is open in the process, the new store
    /// shares its snapshot and watch instead: one small range read (the prefix's newest key and
    /// its number of keys) tells whether the snapshot already holds every change committed
    /// before the open, and the prefix is read again when it does not. When no endpoint answers, or etcd's
    /// revision is below the snapshot's (a restored backup), the store opens on its own as
    /// described above.
    ///
    /// - Parameter configuration: Endpoints, prefix, user and limits.
    /// - Throws: `StorageError.Code.io` naming every endpoint when none answered in time (and
    ///   no cached snapshot serves);
    ///   `StorageError.Code.authenticationFailed` naming the user when etcd refuses the
    ///   name or password, or when the cluster has authentication enabled and no user is
    ///   configured.
    public init(configuration: EtcdStore.Configuration) throws {
        let configuration = configuration.clamped()
        self.configuration = configuration
        if let session = EtcdSession.shared(for: configuration), session.catchUp() {
            self.session = session
            return
        }
        session = EtcdSession(configuration: configuration)
        let cache = session.snapshot.cache
        let openedAt = Date()
        let deadline = Date(timeIntervalSinceNow: configuration.connectionTimeout)
        var delay = 0.05
        // Each round's read may take a quarter of the connection timeout, then twice as long as
        // the round before (at most a request timeout): a cluster slowed by a fleet opening at
        // once gets rounds that wait longer, within the connection timeout.
        var attemptTimeout = min(configuration.requestTimeout, configuration.connectionTimeout / 4)
        // Each different problem, in the order seen: a round cut short by the deadline ("no
        // answer in time") must not hide what the rounds before it found.
        var problems: [String] = []
        var untriedCache = cache
        while true {
            do {
                try client.authenticate()
                let (keyValues, revision) = try Self.readPrefix(
                    client: client, keyPrefix: snapshot.keyPrefix,
                    timeout: max(min(attemptTimeout, deadline.timeIntervalSinceNow), 0.001))
                snapshot.replace(with: keyValues, revision: revision)
                break
            } catch EtcdClient.Failure.unreachable(let problem) {
                if !problems.contains(problem) { problems.append(problem) }
            } catch let error as EtcdClient.Failure {
                throw Self.storageError(error, key: nil, configuration: configuration)
            }
            // After the first round in which no endpoint answered, a usable cache serves.
            if let cache = untriedCache {
                untriedCache = nil
                if servesCache(cache, since: openedAt, problems: problems) {
                    session.share()
                    return
                }
            }
            guard Date(timeIntervalSinceNow: delay) < deadline else {
                throw StorageError(
                    .io, location: "etcd \(configuration.endpointList)",
                    message:
                        "no endpoint answered within \(Self.seconds(configuration.connectionTimeout)) (\(problems.suffix(4).joined(separator: "; ")))"
                )
            }
            // Jittered, so that processes that failed together do not ask again together.
            Thread.sleep(forTimeInterval: delay * Double.random(in: 0.5...1))
            delay = min(delay * 2, 0.5)
            attemptTimeout = min(attemptTimeout * 2, configuration.requestTimeout)
        }
        // The open's snapshot is on disk before the open returns: a short-lived tool's run counts.
        cache?.flush()
        watcher.start()
        session.share()
    }

    /// `etcd://HOST:PORT[,HOST:PORT…]/PREFIX`.
    public var location: String? {
        "etcd://\(configuration.endpointList)/\(configuration.prefix)"
    }

    /// `etcd HOST:PORT[,…] key PREFIX/KEY` for a key the snapshot holds; `nil` otherwise.
    public func origin(forKey key: String) -> String? {
        guard value(forKey: key) != nil else { return nil }
        return "etcd \(configuration.endpointList) key \(snapshot.keyPrefix)\(key)"
    }

    /// When the watch lost its connection to the cluster, once every endpoint failed in turn
    /// (a member that refused it, lost its leader, or, with
    /// ``Configuration/progressNotifyInterval`` set, went silent), while it stays
    /// lost; `nil` while the snapshot is kept current. Reads then serve the snapshot as of
    /// that moment.
    public var disconnectedSince: Date? { snapshot.connection.disconnectedSince }

    /// Returns once the watch has (`true`) or has lost (`false`) its connection: for tests,
    /// which wait on this event instead of a clock.
    package func waitUntilConnected(_ connected: Bool) async {
        await snapshot.connection.wait(connected: connected)
    }

    /// The etcd revision the snapshot holds: every change up to it has been applied. While the
    /// store serves its snapshot cache, the cached snapshot's revision, which the first read
    /// from etcd replaces (lower, if the cluster was created anew).
    public var revision: Int64 { snapshot.revision }

    /// The value of `key` in the snapshot. Never waits for the network.
    public func value(forKey key: String) -> StoredValue? {
        snapshot.read { $0.entries[key]?.value }
    }

    /// The value of `key` and the snapshot's revision, read together.
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        snapshot.read { ($0.entries[key]?.value, UInt64(clamping: $0.revision)) }
    }

    /// Every key under the prefix, in the snapshot.
    public func keys() -> [String] {
        snapshot.read { Array($0.entries.keys) }
    }

    /// Every change committed under the prefix from now on, by any client, once, in revision
    /// order; after a resynchronisation (a compacted revision, a late watch), the differences
    /// it found, as one batch in key order. The stream ends when the store, and every store
    /// sharing its snapshot, is released.
    public func changes() -> AsyncStream<StoredChange> {
        snapshot.broadcaster.subscribe()
    }

    /// The value of `key` in the snapshot and a stream of every later change to it, as one step.
    public func subscription(readingValueForKey key: String) -> KeySubscription {
        snapshot.subscription(readingValueForKey: key)
    }

    /// Stores `value` under `key` (`/v3/kv/put`), or removes the key for `nil`
    /// (`/v3/kv/deleterange`); returns once etcd has committed it. The request is sent even
    /// when the snapshot already holds `value`, since the snapshot may lag another writer.
    ///
    /// The request goes on to the next endpoint only from one that provably never received it
    /// (the connection failed); a put or delete that may have reached a member is never sent
    /// twice, as etcd's own client promises. A delete etcd answers with "deleted 0" (another
    /// client deleted the key first) brings the snapshot past that delete before returning, by
    /// reading the prefix; when that read fails, its error is thrown (etcd holds no such key,
    /// and a read could still serve the old value).
    ///
    /// - Throws: `StorageError.Code.invalidKey` for an empty key or one with control
    ///   characters; `StorageError.Code.encodingFailed` for NaN or an infinity;
    ///   `StorageError.Code.tooLarge` over ``Configuration/maximumRequestBytes`` or etcd's
    ///   own limit; `StorageError.Code.io` when no endpoint could be reached (nothing was
    ///   changed), none has answered since the store opened from its snapshot cache, or etcd
    ///   refused the write; `StorageError.Code.outcomeUnknown` when the
    ///   request reached a member and no answer came in ``Configuration/requestTimeout``, or
    ///   none came before the member had a new leader (the write may or may not have been
    ///   committed); `StorageError.Code.reentrantWrite`
    ///   from inside an update body of this store.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        try checkWritable(key)
        try writers.withLock { lastWrite in
            // Sent even when the snapshot already holds `value`: the snapshot may be stale.
            let answer = try perform(key: key) {
                let etcdKey = Gateway.base64(snapshot.keyPrefix + key)
                if let value {
                    let bytes = try encoded(value, forKey: key)
                    return try client.call(
                        "v3/kv/put", ["key": etcdKey, "value": Gateway.base64(bytes)], request: .write)
                }
                return try client.call("v3/kv/deleterange", ["key": etcdKey], request: .write)
            }
            // A delete of a key etcd no longer holds (`deleted` "0", which the gateway omits)
            // commits no event under the prefix, and the answer's revision is the cluster's
            // (any key's): no event would bring the snapshot there, so there is nothing to wait
            // for, unless the snapshot lags another writer's delete of the key.
            if value == nil, Gateway.int64(answer["deleted"]) == 0 {
                try catchUp(withDeletionOf: [key])
                return
            }
            lastWrite = Gateway.revision(of: answer)
            awaitSnapshot(atLeast: lastWrite)
        }
    }

    /// Reads, changes and writes the value of `key` atomically across every client of the
    /// cluster: a `/v3/kv/txn` that writes only if the key's `mod_revision` is still the one
    /// `body` saw, retried with the newer value otherwise.
    ///
    /// `body` may run more than once; only its last run's result is written and returned. A
    /// run that leaves the value as it found it writes nothing, and its transaction still
    /// proves from etcd that the key holds that value. It may read this store; a write it
    /// makes to this store throws `StorageError.Code.reentrantWrite`.
    ///
    /// A transaction that changes a key etcd held, and got no answer, is sent to the next
    /// endpoint: every copy compares the same `mod_revision`, which no later write gives the
    /// key again, so etcd applies at most one, and a copy that succeeds settles the outcome. A
    /// transaction creating the key compares `mod_revision` 0, which holds again whenever the
    /// key is deleted (a copy a frozen member holds could apply after another client's
    /// delete, undoing it): like a put, it is never sent twice.
    ///
    /// - Throws: As ``setValue(_:forKey:)``, or what `body` throws (nothing is written then);
    ///   `StorageError.Code.outcomeUnknown` when no endpoint answered and one may have
    ///   received the transaction (at once for one creating the key), or when a copy sent
    ///   again found the key changed (an earlier copy may have won before another writer; a
    ///   body that changed nothing runs again instead).
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try checkWritable(key)
        return try writers.withLock { lastWrite in
            var current = snapshot.withState { $0.entries[key] }
            while true {
                var value = current?.value
                let result = try UpdateScope.runBody(ofUpdateOn: [UpdateScope.medium(self)], key: key) {
                    try body(&value)
                }
                // A body that leaves the value as it saw it writes nothing, but its transaction
                // still asks etcd whether the key holds that value: the snapshot may be stale.
                let unchanged =
                    switch (current?.value, value) {
                    case (nil, nil): true
                    case (let old?, let new?): old.isIdentical(to: new)
                    default: false
                    }
                let etcdKey = Gateway.base64(snapshot.keyPrefix + key)
                let operations: [[String: Any]]
                switch (unchanged, value) {
                case (true, _): operations = []
                case (false, let value?):
                    operations = [
                        ["request_put": ["key": etcdKey, "value": Gateway.base64(try encoded(value, forKey: key))]]
                    ]
                case (false, nil): operations = [["request_delete_range": ["key": etcdKey]]]
                }
                let transaction: [String: Any] = [
                    "compare": [
                        [
                            "key": etcdKey, "target": "MOD", "result": "EQUAL",
                            "mod_revision": String(current?.modRevision ?? 0),
                        ]
                    ],
                    "success": operations,
                    "failure": [["request_range": ["key": etcdKey]]],
                ]
                var unanswered: [String] = []
                // A copy creating the key could apply after a later delete: sent once.
                let request: EtcdClient.Request = current == nil && !unchanged ? .write : .compareAndSwap
                let answer = try perform(key: key) {
                    try client.call("v3/kv/txn", transaction, request: request, unanswered: &unanswered)
                }
                if answer["succeeded"] as? Bool == true {
                    // Nothing written: the answer's revision may be any key's, outside the prefix.
                    if let current, unchanged {
                        awaitSnapshot(atLeast: current.modRevision)
                        return result
                    }
                    // etcd holds no such key: the snapshot may lag another writer's delete.
                    if unchanged {
                        try catchUp(withDeletionOf: [key])
                        return result
                    }
                    lastWrite = Gateway.revision(of: answer)
                    awaitSnapshot(atLeast: lastWrite)
                    return result
                }
                // A copy sent before may have won and been overwritten since: etcd cannot say
                // (unless the copies wrote nothing).
                guard unanswered.isEmpty || unchanged else {
                    throw StorageError(
                        .outcomeUnknown, key: key, location: "etcd \(configuration.endpointList)",
                        message:
                            "no answer (\(unanswered.joined(separator: "; "))); sent again, the transaction found the key changed: the update may or may not have been committed"
                    )
                }
                // Another writer came first: start again from what etcd holds now.
                let range =
                    ((answer["responses"] as? [Any])?.first as? [String: Any])?["response_range"] as? [String: Any]
                current = range.flatMap { Gateway.keyValues(of: $0).first }.map {
                    EtcdSnapshot.Entry(value: EtcdValue.decode($0.value), modRevision: $0.modRevision)
                }
            }
        }
    }

    // MARK: - Helpers

    func checkWritable(_ key: String) throws {
        try StorageError.validate(key: key, location: location)
        do {
            try UpdateScope.checkOutsideUpdateBody(of: [UpdateScope.medium(self)])
        } catch let error as StorageError {
            throw error.adding(key: key, location: location)
        }
        try snapshot.withState { state in
            if state.fromCache { throw cachedSnapshotWriteError(key) }
            try StorageError.validate(key: key, writingInto: state.entries, location: location)
        }
    }

    func encoded(_ value: StoredValue, forKey key: String) throws -> Data {
        let bytes: Data
        do {
            bytes = try EtcdValue.encode(value)
        } catch let error as StorageError {
            throw error.adding(key: key, location: location)
        }
        // The key and value bytes, and a little for the request's own fields.
        let size = (snapshot.keyPrefix + key).utf8.count + bytes.count + 64
        guard size <= configuration.maximumRequestBytes else {
            throw StorageError(
                .tooLarge, key: key, location: location,
                message:
                    "the request would take \(size) bytes, over the limit of \(configuration.maximumRequestBytes) (etcd's --max-request-bytes)"
            )
        }
        return bytes
    }

    /// Runs a request, turning its failure into a `StorageError` naming `key`.
    func perform(key: String, _ request: () throws -> [String: Any]) throws -> [String: Any] {
        do {
            return try request()
        } catch let error as EtcdClient.Failure {
            throw Self.storageError(error, key: key, configuration: configuration)
        }
    }

    static func seconds(_ interval: TimeInterval) -> String {
        interval == interval.rounded() ? "\(Int(interval)) s" : "\(interval) s"
    }
}
