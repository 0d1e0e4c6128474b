extension EnvironmentStore {
    /// What one key reads: its variable's name (`nil`: the key has none), and the value and
    /// origin it resolves to (`nil`: unset).
    ///
    /// A class, so that a read copies one reference out of the lock rather than three fields
    /// (each a retain and a release); its members never change after creation.
    final class KeyEntry: Sendable {
        let variable: String?
        let value: StoredValue?
        let origin: String?

        init(variable: String?, value: StoredValue?, origin: String?) {
            self.variable = variable
            self.value = value
            self.origin = origin
        }
    }

    /// The key's value, from its kept entry when there is one (copied out under the lock, so
    /// the entry itself is neither retained nor released), else from its entry resolved now.
    func entryValue(forKey key: String) -> StoredValue? {
        // No variable of the prefix is set (the usual case): every key is unset.
        if variables.isEmpty, undecodable.isEmpty { return nil }
        if let cached = keyEntries.withLock({ entries -> StoredValue?? in entries[key].map { $0.value } }) {
            return cached
        }
        return entry(forKey: key).value
    }

    /// The key's entry, resolved once and kept: a read then costs one lock and one dictionary
    /// lookup, as an in-memory read does. A key whose variable is not valid UTF-8 is not
    /// kept, so every read of it reports the problem again (unless a tool's store collected it).
    func entry(forKey key: String) -> KeyEntry {
        if let cached = keyEntries.withLock({ $0[key] }) { return cached }
        let variable = KeyWords.screamingSnakeCase(key).map { prefix + $0 }
        let resolution = variable.flatMap { resolved(name: $0, key: key) }
        let entry = KeyEntry(variable: variable, value: resolution?.value, origin: resolution?.origin)
        if !(variable.map(undecodable.contains) ?? false) {
            keyEntries.withLock { entries in
                if entries.count < Self.keyEntryLimit { entries[key] = entry }
            }
        }
        return entry
    }
}
