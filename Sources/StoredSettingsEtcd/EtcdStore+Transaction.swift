import Foundation
public import StoredSettings

extension EtcdStore {
    /// Sets every key of `values` (removing those whose value is `nil`) in one etcd
    /// transaction (`/v3/kv/txn` with no comparison): etcd applies all of them or none, at one
    /// revision, and every watcher sees them together. Returns once etcd has committed it and
    /// the snapshot holds it.
    ///
    /// Like a put, the transaction is never sent twice: one that reached a member and got no
    /// answer throws `StorageError.Code.outcomeUnknown`.
    ///
    /// Limit: etcd refuses a transaction of more operations than its `--max-txn-ops` (128 by
    /// default) or a request over its `--max-request-bytes`; nothing is changed then.
    ///
    /// - Throws: As ``setValue(_:forKey:)``, for the first key (in sorted order) that cannot be
    ///   written, before anything is sent; `StorageError.Code.tooLarge` when the whole request
    ///   exceeds ``Configuration/maximumRequestBytes`` or etcd's limits.
    public func setValues(_ values: [String: StoredValue?]) throws {
        let sorted = values.sorted { $0.key < $1.key }
        for (key, _) in sorted { try checkWritable(key) }
        guard !sorted.isEmpty else { return }
        try writers.withLock { lastWrite in
            var operations: [[String: Any]] = []
            var size = 64
            for (key, value) in sorted {
                let etcdKey = Gateway.base64(snapshot.keyPrefix + key)
                size += (snapshot.keyPrefix + key).utf8.count + 16
                guard let value else {
                    operations.append(["request_delete_range": ["key": etcdKey]])
                    continue
                }
                let bytes = try encoded(value, forKey: key)
                size += bytes.count
                operations.append(["request_put": ["key": etcdKey, "value": Gateway.base64(bytes)]])
            }
            guard size <= configuration.maximumRequestBytes else {
                throw StorageError(
                    .tooLarge, location: location,
                    message:
                        "the transaction of \(sorted.count) keys would take \(size) bytes, over the limit of \(configuration.maximumRequestBytes) (etcd's --max-request-bytes)"
                )
            }
            let answer: [String: Any]
            do {
                answer = try client.call("v3/kv/txn", ["success": operations], request: .write)
            } catch let failure as EtcdClient.Failure {
                throw Self.storageError(failure, key: nil, configuration: configuration)
            }
            // Only deletes of keys etcd no longer held commit no event: nothing to wait for,
            // unless the snapshot lags another writer's delete of one of them.
            let responses = answer["responses"] as? [[String: Any]] ?? []
            let changed = responses.contains { response in
                response["response_put"] != nil
                    || Gateway.int64((response["response_delete_range"] as? [String: Any])?["deleted"]) > 0
            }
            guard changed else {
                try catchUp(withDeletionOf: sorted.map(\.key))
                return
            }
            lastWrite = Gateway.revision(of: answer)
            awaitSnapshot(atLeast: lastWrite)
        }
    }
}
