public import StoredSettings

extension EtcdStore {
    /// The value etcd holds under `key` now, asked of the cluster (a linearizable
    /// `/v3/kv/range`) instead of the snapshot.
    ///
    /// Reads normally come from the snapshot, which may lag another writer by moments. Ask
    /// the cluster when that matters: after a write threw `StorageError.Code.outcomeUnknown`,
    /// to learn whether it was committed (a later answer may still differ, once the member
    /// that received it resumes), or to check what another process just wrote.
    ///
    /// - Parameter key: The setting's key.
    /// - Returns: The value, or `nil` when etcd holds no such key.
    /// - Throws: `StorageError.Code.invalidKey` for an empty key or one with control
    ///   characters; `StorageError.Code.io` when no endpoint answered or etcd refused the
    ///   request.
    ///
    /// Thread-safety: may be called from any thread; blocks for at most one request timeout
    /// per endpoint.
    public func committedValue(forKey key: String) throws -> StoredValue? {
        try StorageError.validate(key: key, location: location)
        do {
            let answer = try client.call("v3/kv/range", ["key": Gateway.base64(snapshot.keyPrefix + key)])
            return Gateway.keyValues(of: answer).first.map { EtcdValue.decode($0.value) }
        } catch let error as EtcdClient.Failure {
            throw Self.storageError(error, key: key, configuration: configuration)
        }
    }
}
