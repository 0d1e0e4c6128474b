extension EnvironmentStore {
    /// What one key reads: its variable's name (`nil`: the key has none), and the value and
    /// origin it resolves to (`nil`: unset).
    struct KeyEntry: Sendable {
        var variable: String?
        var value: StoredValue?
        var origin: String?
    }

    /// The key's entry, resolved once and kept: a read then costs one lock and one dictionary
    /// lookup, as an in-memory read does. A key whose variable is not valid UTF-8 is not
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
