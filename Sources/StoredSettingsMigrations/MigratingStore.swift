public import StoredSettings

/// A store whose keys and values changed shape between versions of an app: renamed keys read
/// through, and versioned ``Migration``s that run once per store.
///
/// Open the app's store through it, with every rename and migration the app has ever made:
///
/// ```swift
/// let file = try FileStore(application: "notes")
/// let store = try MigratingStore(
///     file,
///     renamedKeys: [KeyRename(from: "theme", to: "appearance")],
///     migrations: [
///         Migration(version: 2) { batch in
///             batch.moveValue(fromKey: "wrap", toKey: "wrapColumn")
///         },
///     ]
/// )
/// let settings = NotesSettings(store: store)
/// ```
///
/// **Migrations** run when the store opens, in version order, those above the version the
/// store recorded (0 when it recorded none), and then the highest version is recorded under
/// ``versionKey`` in the store itself. All of it happens in one `TransactionalStore.batch(_:)`
/// of the base store; for a `FileStore` that means:
/// - **Under the writer lock, across processes**: the batch holds the `flock` every writer of
///   the file takes and re-reads the file under it, so when several processes open the store
///   at once, the first migrates and the others find the new version recorded: each
///   migration runs once in total.
/// - **Crash-safe**: the batch is written with one atomic `rename`. A process killed inside a
///   migration, or between two, leaves the file byte for byte as it was, readable by the old
///   version of the app; the next open runs the migrations again.
/// - **All or nothing**: a migration that throws writes nothing; the initializer throws
///   `StorageError.Code.migrationFailed` naming the version and the file.
///
/// A store that recorded its version and has no newer migration opens without taking the
/// lock. A store recorded at a version above every migration given (written by a newer
/// version of the app) is left as it is.
///
/// **Renamed keys** (``KeyRename``) are lazy: reads of the new key fall back to the old one
/// while the new one holds nothing, and the first write of the new key writes it and removes
/// the old one in one batch. ``keys()`` lists the new name in place of the old one, and
/// ``changes()`` delivers a change of the old key as a change of the new one while the new key
/// holds nothing.
///
/// Only stores with a multi-key transaction can be migrated (`TransactionalStore`):
/// `FileStore`, and `UserDefaultsStore` with the weaker promises its
/// `UserDefaultsStore.batch(_:)` states (migrations there must be safe to run twice).
///
/// Thread-safety: every member may be used from any thread or task; each write is one write
/// of the base store.
public final class MigratingStore: Storable {
    /// The key under which the store records its schema version, as an `Int`:
    /// `storedSettingsSchemaVersion`.
    ///
    /// It belongs to the library: ``keys()`` and ``changes()`` of a `MigratingStore` leave it
    /// out, and tools that list a file's keys or look for keys no setting declares should skip
    /// it. Do not declare a setting with this key.
    public static let versionKey = "storedSettingsSchemaVersion"

    /// The store the values live in.
    public let base: any TransactionalStore
    /// The renames this store reads through.
    public let renamedKeys: [KeyRename]
    /// The schema version the store was at once opening finished: the highest migration's
    /// version, or a higher one a newer app recorded, or 0 when there are no migrations and
    /// none was recorded.
    public let schemaVersion: Int

    /// For each new key, its old keys, nearest first.
    let oldKeys: [String: [String]]
    /// For each old key, the key it is read as now (the end of its chain of renames).
    let currentKeys: [String: String]

    /// Opens `base` with `renamedKeys`, running the `migrations` the store has not run yet.
    ///
    /// - Parameters:
    ///   - base: The store that keeps the values: a `FileStore`, or another
    ///     `TransactionalStore`.
    ///   - renamedKeys: Every key the app renamed, in any order.
    ///   - migrations: Every migration the app ever made, in any order.
    /// - Throws: `StorageError.Code.invalidKey` for a rename with an invalid key, an old key
    ///   renamed twice, or renames that form a loop; `StorageError.Code.migrationFailed` when
    ///   two migrations share a version, a version is below 1, or a migration throws (the
    ///   message names the version, `StorageError.location` the file, and nothing is written);
    ///   `StorageError.Code.typeMismatch` naming ``versionKey`` when the recorded version is
    ///   not a whole number of 0 or more; what the base store's `TransactionalStore.batch(_:)`
    ///   throws when the migrated values cannot be written.
    public init(_ base: some TransactionalStore, renamedKeys: [KeyRename] = [], migrations: [Migration] = []) throws {
        self.base = base
        self.renamedKeys = renamedKeys
        let chains = try Self.chains(of: renamedKeys, location: base.location)
        oldKeys = chains.oldKeys
        currentKeys = chains.currentKeys
        schemaVersion = try Self.migrate(base, with: migrations)
    }

    /// The path of the base store, for error messages.
    public var location: String? { base.location }

    /// The value of `key`, or, when it holds none and `key` was renamed, of its old key.
    public func value(forKey key: String) -> StoredValue? {
        Self.readThrough(key, base: base, oldKeys: oldKeys)
    }

    /// ``value(forKey:)`` with the base store's revision.
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        let (value, revision) = base.valueWithRevision(forKey: key)
        if value != nil { return (value, revision) }
        return (Self.readThrough(key, base: base, oldKeys: oldKeys), revision)
    }

    /// The value the base store registered for `key` (`Storable.registeredValue(forKey:)`).
    public func registeredValue(forKey key: String) -> StoredValue? {
        base.registeredValue(forKey: key)
    }

    /// The base store's keys, each old key of a rename listed under its new name, without
    /// ``versionKey``.
    public func keys() -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for key in base.keys() where key != Self.versionKey {
            let current = currentKeys[key] ?? key
            if seen.insert(current).inserted { result.append(current) }
        }
        return result
    }

    /// Stores `value` under `key` (removes it for `nil`). For a renamed key, the old keys are
    /// removed in the same batch of the base store.
    ///
    /// - Throws: `StorageError.Code.invalidKey`, or what the base store throws; nothing
    ///   changes then.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        guard let old = oldKeys[key] else { return try base.setValue(value, forKey: key) }
        try StorageError.validate(key: key, location: base.location)
        try base.batch { batch in
            batch[key] = value
            for oldKey in old { batch[oldKey] = nil }
        }
    }

    /// Reads, changes and writes the value of `key` as one step of the base store. For a
    /// renamed key, `body` starts from the old key's value when the new one holds none, and a
    /// change is written to the new key with the old keys removed, in one batch; a `body` that
    /// changes nothing writes nothing.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` or the base store throws; nothing changes then.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        guard let old = oldKeys[key] else { return try base.update(forKey: key, body) }
        try StorageError.validate(key: key, location: base.location)
        return try base.batch { batch in
            var value = batch[key]
            for oldKey in old where value == nil { value = batch[oldKey] }
            let before = value
            let result = try body(&value)
            if !before.isIdentical(to: value) {
                batch[key] = value
                for oldKey in old { batch[oldKey] = nil }
            }
            return result
        }
    }

    /// Every change of what reads return, from now on, in order: the base store's changes,
    /// a change of an old key delivered under its new key while the new key holds nothing
    /// (the removal of an old key that a write moved is no change), and no change of
    /// ``versionKey``. A renamed key's value is delivered once however many of its keys one
    /// write changed: removing both the old and the new key is one removal.
    public func changes() -> AsyncStream<StoredChange> {
        let (stream, continuation) = AsyncStream<StoredChange>.makeStream(bufferingPolicy: .unbounded)
        // Subscribe first, so no change committed after this call returns is missed.
        let source = base.changes()
        let (base, oldKeys, currentKeys) = (self.base, self.oldKeys, self.currentKeys)
        let task = Task {
            // What was delivered last under each renamed key, so one write that changes several
            // of its keys is delivered once.
            var delivered: [String: StoredValue?] = [:]
            for await change in source where change.key != Self.versionKey {
                var renamed = change
                if let current = currentKeys[change.key] {
                    guard base.value(forKey: current) == nil else { continue }
                    renamed = StoredChange(key: current, value: Self.readThrough(current, base: base, oldKeys: oldKeys))
                } else if oldKeys[change.key] == nil {
                    continuation.yield(change)
                    continue
                }
                if let last = delivered[renamed.key], last.isIdentical(to: renamed.value) { continue }
                delivered[renamed.key] = renamed.value
                continuation.yield(renamed)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// The value of `key` in `base`, else of its first old key that holds one.
    static func readThrough(_ key: String, base: any Storable, oldKeys: [String: [String]]) -> StoredValue? {
        if let value = base.value(forKey: key) { return value }
        for oldKey in oldKeys[key] ?? [] {
            if let value = base.value(forKey: oldKey) { return value }
        }
        return nil
    }
}
