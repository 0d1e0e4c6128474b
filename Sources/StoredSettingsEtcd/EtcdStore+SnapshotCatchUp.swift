import Foundation
import StoredSettings

extension EtcdStore {
    /// Waits (at most one request timeout) for the watch to bring the snapshot to `revision`;
    /// reads the prefix itself when the watch is late, so a read after a write sees the write.
    func awaitSnapshot(atLeast revision: Int64) {
        guard revision > 0 else { return }
        if snapshot.wait(forRevision: revision, timeout: configuration.requestTimeout) {
            return
        }
        if let (keyValues, at) = try? Self.readPrefix(client: client, keyPrefix: snapshot.keyPrefix) {
            snapshot.replace(with: keyValues, revision: at)
        }
    }

    /// Every key-value under `keyPrefix` and the revision they were read at (`/v3/kv/range`).
    /// `raced` hedges the read over the endpoints (``EtcdClient/race(_:_:timeout:)``);
    /// `timeout` bounds each request (the race, when raced), by default the request timeout.
    static func readPrefix(
        client: EtcdClient, keyPrefix: String, raced: Bool = false, timeout: TimeInterval? = nil
    ) throws -> ([Gateway.KeyValue], Int64) {
        let range: [String: Any] = [
            "key": Gateway.base64(keyPrefix), "range_end": Gateway.rangeEnd(ofPrefix: keyPrefix),
        ]
        let answer =
            try raced
            ? client.race("v3/kv/range", range, timeout: timeout) : client.call("v3/kv/range", range, timeout: timeout)
        let revision = Gateway.revision(of: answer)
        // The watch asks for the revision after this one: Int64.max has none.
        guard revision < Int64.max else {
            throw EtcdClient.Failure.invalidAnswer("etcd answered revision \(revision), which has no next revision")
        }
        return (Gateway.keyValues(of: answer), revision)
    }

    /// Brings the snapshot past a delete etcd answered with "deleted 0" for `keys`: etcd held
    /// none of them at the answer's revision, so a snapshot still holding one lags another
    /// writer's delete, which the watch may deliver late (a frozen member's watch never). The
    /// prefix is read again then, as after a late watch, so a read after the delete sees it.
    ///
    /// - Throws: The `StorageError` of that read when it fails (naming the key when there is
    ///   one): a read after the delete could serve the old value, so the delete must not return
    ///   as if it could not.
    func catchUp(withDeletionOf keys: [String]) throws {
        guard snapshot.read({ state in keys.contains { state.entries[$0] != nil } }) else { return }
        do {
            let (keyValues, at) = try Self.readPrefix(client: client, keyPrefix: snapshot.keyPrefix)
            snapshot.replace(with: keyValues, revision: at)
        } catch let failure as EtcdClient.Failure {
            throw Self.storageError(failure, key: keys.count == 1 ? keys[0] : nil, configuration: configuration)
        }
    }
}
