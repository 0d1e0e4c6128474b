import Foundation

extension FileStore: TransactionalStore {
    /// Many changes to a ``FileStore`` applied as one: one lock, one read of the file if it
    /// changed, one write. The ``StoreBatch`` of every ``TransactionalStore``.
    ///
    /// You get a `Batch` inside ``FileStore/batch(_:)``; it holds the file's current values,
    /// and what you change in it is written when the closure returns.
    ///
    /// ```swift
    /// try store.batch { batch in
    ///     batch["autoReload"] = .bool(true)
    ///     batch["theme"] = .string("dark")
    ///     batch["lastOpened"] = nil
    /// }
    /// ```
    public typealias Batch = StoreBatch

    /// Applies every change `body` makes to its ``Batch`` with one lock and one write.
    ///
    /// `body` sees the values currently in the file (re-read if another process changed it),
    /// while the store holds the file's cross-process lock: the whole batch is atomic across
    /// threads and processes. When `body` changes nothing, nothing is written. Like the body of
    /// ``FileStore/update(forKey:_:)``, `body` may run again on the file's new contents when
    /// another writer got in during the write (the lock file was deleted); only its last run is
    /// written.
    ///
    /// ```swift
    /// try store.batch { batch in
    ///     for (index, name) in recentFiles.enumerated() {
    ///         batch["recent.\(index)"] = .string(name)
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, ``StorageError/Code/invalidKey`` for an invalid key set
    ///   through the subscript, or what ``setValue(_:forKey:)`` throws. Nothing is written and
    ///   nothing changes in memory then.
    public func batch<R>(_ body: (inout Batch) throws -> R) throws -> R {
        do {
            return try commit { values in
                var batch = Batch(values: values)
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
