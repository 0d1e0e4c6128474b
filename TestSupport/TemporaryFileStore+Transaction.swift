public import StoredSettings

/// A `TemporaryFileStore` applies a batch as its ``FileStore`` does: atomically, under the
/// file's cross-process lock, with one `rename`. So a test can open a `MigratingStore` over
/// it, and ``TemporaryFileStore/reopened()`` shows what the next launch finds.
extension TemporaryFileStore: TransactionalStore {}
