/// A store that can apply changes to many keys as one atomic step: the stores a
/// `MigratingStore` can migrate.
///
/// ``FileStore`` conforms: its ``FileStore/batch(_:)`` runs under the file's cross-process
/// `flock`, on the values currently in the file, and writes them with one atomic `rename`, so
/// other threads and processes see all of a batch or none of it, and a crash leaves the file
/// as it was before the batch.
///
/// ``UserDefaultsStore`` conforms with weaker promises, which ``UserDefaultsStore/batch(_:)``
/// states: batches exclude each other across processes, but UserDefaults applies each key on
/// its own. The test double `InMemoryStore` does not conform; test code that migrates opens a
/// `TemporaryFileStore`, which does.
///
/// A backend that conforms promises, for ``batch(_:)``:
/// - **Atomic and isolated.** `body` sees the store's current values; no other writer, in
///   this process or another, changes the store between the read and the write of the batch.
/// - **All or nothing.** When `body` throws, or the write fails, nothing changes, in memory or
///   in the medium, and the error is rethrown.
/// - **Durable and crash-safe.** When `batch` returns, every change is stored; a crash at any
///   moment leaves the store as it was before the batch or as it is after it.
/// - **Delivered once.** Each changed key is delivered once through ``Storable/changes()``;
///   a body that changes nothing writes nothing.
public protocol TransactionalStore: Storable {
    /// Applies every change `body` makes to its ``StoreBatch`` as one atomic write.
    ///
    /// `body` may run more than once (when the store must start over on newer values); only
    /// the last run's changes are written, so keep its effects inside the batch.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or the store's write errors; nothing changes then.
    func batch<R>(_ body: (inout StoreBatch) throws -> R) throws -> R
}
