import StoredSettings

extension MigratingStore {
    /// The old keys of every new key (nearest first) and the current key of every old key.
    ///
    /// - Throws: `StorageError.Code.invalidKey` for an invalid key, an old key renamed
    ///   twice, a key renamed to itself, or a loop of renames.
    static func chains(of renames: [KeyRename], location: String?) throws -> (
        oldKeys: [String: [String]], currentKeys: [String: String]
    ) {
        var next: [String: String] = [:]
        for rename in renames {
            try StorageError.validate(key: rename.oldKey, location: location)
            try StorageError.validate(key: rename.newKey, location: location)
            guard rename.oldKey != rename.newKey, next[rename.oldKey] == nil else {
                throw StorageError(
                    .invalidKey, key: rename.oldKey, location: location,
                    message: "the key is renamed more than once, or to itself")
            }
            next[rename.oldKey] = rename.newKey
        }
        var currentKeys: [String: String] = [:]
        var oldKeys: [String: [String]] = [:]
        for oldKey in next.keys.sorted() {
            var current = oldKey
            var steps = 0
            while let following = next[current] {
                current = following
                steps += 1
                if steps > next.count {
                    throw StorageError(.invalidKey, key: oldKey, location: location, message: "the renames form a loop")
                }
            }
            currentKeys[oldKey] = current
        }
        // Nearest first: walk back from each current key.
        let previous = Dictionary(grouping: next.keys, by: { next[$0] ?? "" })
        for current in Set(currentKeys.values) {
            var queue = [current]
            var found: [String] = []
            while !queue.isEmpty {
                let key = queue.removeFirst()
                for oldKey in (previous[key] ?? []).sorted() {
                    found.append(oldKey)
                    queue.append(oldKey)
                }
            }
            oldKeys[current] = found
        }
        return (oldKeys, currentKeys)
    }

    /// Runs the migrations above the version `base` recorded, in one batch with the new
    /// version, and returns the version the store is at.
    static func migrate(_ base: some TransactionalStore, with migrations: [Migration]) throws -> Int {
        let location = base.location
        let sorted = migrations.sorted { $0.version < $1.version }
        for (index, migration) in sorted.enumerated() {
            if migration.version < 1 {
                throw StorageError(
                    .migrationFailed, location: location,
                    message: "migration versions start at 1, not \(migration.version)")
            }
            if index > 0, sorted[index - 1].version == migration.version {
                throw StorageError(
                    .migrationFailed, location: location,
                    message: "two migrations have version \(migration.version)")
            }
        }
        let latest = sorted.last?.version ?? 0
        // Up to date: no lock, no write.
        let recorded = try recordedVersion(base.value(forKey: versionKey), location: location)
        guard recorded < latest else { return recorded }
        return try base.batch { batch in
            // Under the writer lock, on the values now stored: another process may have
            // migrated meanwhile.
            let current = try recordedVersion(batch[versionKey], location: location)
            guard current < latest else { return current }
            for migration in sorted where migration.version > current {
                do {
                    try migration.transform(&batch)
                    if let invalid = batch.invalidKey { throw invalid }
                } catch {
                    throw StorageError(
                        .migrationFailed, location: location,
                        message: "migration to version \(migration.version) failed: \(describe(error))")
                }
            }
            batch[versionKey] = .int(Int64(latest))
            return latest
        }
    }

    /// The version recorded in `value`: 0 for none. Any spelling an `Int` setting reads is
    /// read (`3`, `3.0`, `"3"`), since the file may have been edited by hand.
    ///
    /// - Throws: `StorageError.Code.typeMismatch` naming ``versionKey`` for anything but a
    ///   whole number of 0 or more.
    static func recordedVersion(_ value: StoredValue?, location: String?) throws -> Int {
        guard let value else { return 0 }
        if let version = try? Int(storedValue: value), version >= 0 { return version }
        throw StorageError(
            .typeMismatch, key: versionKey, location: location, expectedType: "Int", foundKind: value.kind,
            message: "the schema version MigratingStore records must be a whole number of 0 or more")
    }

    /// An error's text without its closing full stop, to go inside another sentence.
    private static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        return text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}
