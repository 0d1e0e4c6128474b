import Foundation
import StoredSettings

/// The client, the snapshot and its watch that every open ``EtcdStore`` of one configuration in
/// a process shares: a hundred stores on one prefix hold one copy of its values and keep one
/// watch open, not a hundred.
///
/// A session lives while a store holds it; the last store released stops its watch, finishes
/// its change streams and shuts its snapshot cache down.
///
/// Thread-safety: `Sendable`; the table of open sessions is kept under a lock.
final class EtcdSession: Sendable {
    let client: EtcdClient
    let snapshot: EtcdSnapshot
    let watcher: EtcdWatcher

    /// A new session, not yet shared: ``share()`` offers it to the stores opened after it.
    init(configuration: EtcdStore.Configuration) {
        client = EtcdClient(configuration: configuration)
        let cache = configuration.snapshotCacheFile.map { EtcdSnapshotCache(url: $0, configuration: configuration) }
        snapshot = EtcdSnapshot(keyPrefix: configuration.prefix + "/", cache: cache)
        watcher = EtcdWatcher(client: client, snapshot: snapshot)
    }

    deinit {
        watcher.stop()
        snapshot.cache?.shutDown()
        snapshot.broadcaster.finishAll()
    }

    private struct Entry {
        let configuration: EtcdStore.Configuration
        weak var session: EtcdSession?
    }

    /// The sessions of the stores open in this process: a short list, one per configuration.
    private static let open = Lock<[Entry]>([])

    /// The session of an open store with exactly `configuration` (endpoints in the same order,
    /// the same user and limits), if there is one.
    static func shared(for configuration: EtcdStore.Configuration) -> EtcdSession? {
        let (found, _) = open.withLock { entries in
            let alive = pruned(&entries)
            return (entries.first { $0.configuration == configuration }?.session, alive)
        }
        return found
    }

    /// Offers this session, once its store has opened, to the stores opened after it. (Stores
    /// opened at the same moment, before either has shared its session, each keep their own.)
    func share() {
        let configuration = client.configuration
        _ = Self.open.withLock { entries in
            let alive = Self.pruned(&entries)
            entries.removeAll { $0.configuration == configuration }
            entries.append(Entry(configuration: configuration, session: self))
            return alive
        }
    }

    /// Drops the entries of released sessions, and returns the live ones: the caller holds them
    /// until the lock is released, so no session's deinit (which finishes change streams and
    /// runs their termination handlers) runs under it.
    private static func pruned(_ entries: inout [Entry]) -> [EtcdSession] {
        var alive: [EtcdSession] = []
        entries.removeAll { entry in
            guard let session = entry.session else { return true }
            alive.append(session)
            return false
        }
        return alive
    }

    /// Brings the snapshot up to what etcd holds now, for a store that joins this session: one
    /// range read of the prefix's newest key (by mod revision, without its value) and of how many
    /// keys it holds. A snapshot whose revision reaches that key's, and which was built from as
    /// many keys, has every change committed before that read (a later put would be newer; a
    /// later delete would leave fewer keys); otherwise the prefix is read again. Both reads ask
    /// every endpoint at once (``EtcdClient/race(_:_:)``, as an open does), so a frozen member
    /// costs nothing.
    ///
    /// - Returns: Whether the snapshot is current; `false` (the store then opens as if alone)
    ///   without an answer, or when etcd's revision is below the snapshot's (a restored backup).
    func catchUp() -> Bool {
        let prefix = snapshot.keyPrefix
        let newest: [String: Any] = [
            "key": Gateway.base64(prefix), "range_end": Gateway.rangeEnd(ofPrefix: prefix), "limit": 1,
            "sort_order": "DESCEND", "sort_target": "MOD", "keys_only": true,
        ]
        let raced = client.mayRaceReads
        guard let answer = try? raced ? client.race("v3/kv/range", newest) : client.call("v3/kv/range", newest),
            Gateway.revision(of: answer) >= snapshot.revision
        else { return false }
        let newestRevision = Gateway.keyValues(of: answer).first?.modRevision ?? 0
        let count = Gateway.int64(answer["count"])
        let current = snapshot.withState {
            !$0.fromCache && $0.revision >= newestRevision && Int64($0.etcdKeyCount) == count
        }
        if current { return true }
        guard let (values, revision) = try? EtcdStore.readPrefix(client: client, keyPrefix: prefix, raced: raced),
            revision >= snapshot.revision
        else { return false }
        snapshot.replace(with: values, revision: revision)
        return true
    }
}
