public import StoredSettings

/// One versioned change to a store's values, run once per store by ``MigratingStore``.
///
/// A migration is the step from the version below it to its ``version``: it gets every key
/// of the store in a `StoreBatch` and reads, sets and removes whatever it needs.
///
/// ```swift
/// let migrations = [
///     // Version 2 keeps the wrap column inside `layout`.
///     Migration(version: 2) { batch in
///         if case .int(let column)? = batch["wrapColumn"] {
///             batch["layout"] = .dictionary(["wrapColumn": .int(column), "indent": .int(2)])
///             batch["wrapColumn"] = nil
///         }
///     },
/// ]
/// ```
///
/// Versions are whole numbers from 1; a store that never recorded one is at version 0. The
/// pending migrations of a store (those above its recorded version) run in version order, all
/// in one `TransactionalStore.batch(_:)` together with the new version, so other processes
/// and a crash see either none of them or all of them.
///
/// The transform may throw: then nothing is written and ``MigratingStore/init(_:renamedKeys:migrations:)``
/// throws `StorageError.Code.migrationFailed` naming the version and the file. Keep its
/// effects inside the batch: the batch may run it again when it must start over on newer
/// values (see `FileStore.batch(_:)`), and a crash before the batch is written runs it again
/// on the next open.
public struct Migration: Sendable {
    /// The version the store is at once this migration has run: 1 or more.
    public let version: Int
    /// The change, on every value of the store.
    let transform: @Sendable (inout StoreBatch) throws -> Void

    /// Creates the migration to `version`.
    ///
    /// - Parameters:
    ///   - version: The version the store is at after this migration; two migrations of one
    ///     store may not share a version.
    ///   - transform: Reads and changes the store's values; runs while the store's writer lock
    ///     is held, so it must not write to the store by other means.
    public init(version: Int, _ transform: @escaping @Sendable (inout StoreBatch) throws -> Void) {
        self.version = version
        self.transform = transform
    }
}
