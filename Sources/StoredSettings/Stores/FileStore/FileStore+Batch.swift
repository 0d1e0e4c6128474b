import Foundation

extension FileStore: TransactionalStore {
    /// Applies every change `body` makes to its ``StoreBatch`` with one lock and one write.
    ///
    /// `body` sees the values currently in the file, under the file's cross-process lock: the
    /// batch is atomic across threads and processes. When `body` changes nothing, nothing is
    /// written. As with ``FileStore/update(forKey:_:)``, `body` may run more than once; only its
    /// last run is written.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, ``StorageError/Code/invalidKey`` for an invalid key set
    ///   through the subscript, or what ``setValue(_:forKey:)`` throws. Nothing is written and
    ///   nothing changes in memory then.
    public func batch<R>(_ body: (inout StoreBatch) throws -> R) throws -> R {
        do {
            return try commit { values in
                var batch = StoreBatch(values: values)
                let result = try body(&batch)
                if let invalid = batch.invalidKey { throw invalid }
                let changedKeys = batch.changedKeys
                if !changedKeys.isEmpty { values = batch.values }
                return (result, changedKeys)
            }
        } catch let error as StorageError {
            throw error.adding(location: path)
        }
    }
}
