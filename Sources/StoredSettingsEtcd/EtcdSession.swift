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
        open.withLock { entries in
            entries.removeAll { $0.session == nil }
            return entries.first { $0.configuration == configuration }?.session
        }
    }

    /// Offers this session, once its store has opened, to the stores opened after it.
    func share() {
        let configuration = client.configuration
        Self.open.withLock { entries in
            entries.removeAll { $0.session == nil || $0.configuration == configuration }
            entries.append(Entry(configuration: configuration, session: self))
        }
    }

    /// Brings the snapshot up to what etcd holds now, for a store that joins this session: one
    /// range request for the prefix's newest key and its number of keys. A snapshot whose
    /// revision reaches that key's and that holds as many keys has every change committed
    /// before the request (a later put would be newer, a later delete would leave fewer keys);
    /// otherwise the prefix is read again.
    ///
    /// - Returns: Whether etcd answered; without an answer the store opens as if alone.
    func catchUp() -> Bool {
        let prefix = snapshot.keyPrefix
        let newest: [String: Any] = [
            "key": Gateway.base64(prefix), "range_end": Gateway.rangeEnd(ofPrefix: prefix), "limit": 1,
            "sort_order": "DESCEND", "sort_target": "MOD", "keys_only": true,
        ]
        guard let answer = try? client.call("v3/kv/range", newest) else { return false }
        let newestRevision = Gateway.keyValues(of: answer).first?.modRevision ?? 0
        let count = Gateway.int64(answer["count"])
        let current = snapshot.withState {
            !$0.fromCache && $0.revision >= newestRevision && Int64($0.entries.count) == count
        }
        if current { return true }
        guard let (keyValues, revision) = try? EtcdStore.readPrefix(client: client, keyPrefix: prefix) else {
            return false
        }
        snapshot.replace(with: keyValues, revision: revision)
        return true
    }
}
