import StoredSettings

extension EnvironmentStore {
    /// What one key reads: its variable's name (`nil`: the key has none), and the value and
    /// origin it resolves to (`nil`: unset).
    ///
    /// A class, so a read copies one reference out of the lock; immutable, hence `Sendable`.
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

    /// The key's value, copied out of its kept entry under the lock, else resolved now.
    func entryValue(forKey key: String) -> StoredValue? {
        // No variable of the prefix is set (the usual case): every key is unset.
        if variables.isEmpty, undecodable.isEmpty { return nil }
        if let cached = keyEntries.withLock({ entries -> StoredValue?? in entries[key].map { $0.value } }) {
            return cached
        }
        return entry(forKey: key).value
    }

    /// The key's entry, resolved once and kept; one whose variable is not valid UTF-8 is not
    /// kept, so every read of it reports the problem again.
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
