import Foundation

/// What reads last decided for each key, stored or only registered, so a read inspects the
/// domains only when the value it finds changed.
struct Provenance: Sendable {
    /// Counts the forgettings, so a decision made before one is not recorded after it.
    var generation: UInt64 = 0
    var decisions: [String: (value: StoredValue, isStored: Bool)] = [:]
}

extension SuiteState {
    /// The stored value of `key`: what `object(forKey:)` finds, unless it was only registered.
    ///
    /// The decision is kept while the value found stays the same; a change behind the stores'
    /// back that leaves the value equal keeps it until the next write, `update` or notification.
    func storedValue(forKey key: String) -> StoredValue? {
        guard let found = lookUp(key) else { return nil }
        return found.isStored ? found.value : nil
    }

    /// The value of `key` when it was only registered: the other half of ``storedValue(forKey:)``.
    func registeredValue(forKey key: String) -> StoredValue? {
        guard let found = lookUp(key) else { return nil }
        return found.isStored ? nil : found.value
    }

    /// What `object(forKey:)` finds for `key`, and whether it is stored or only registered.
    private func lookUp(_ key: String) -> (value: StoredValue, isStored: Bool)? {
        let (generation, known) = provenance.withLock { ($0.generation, $0.decisions[key]) }
        guard let object = defaults.defaults.object(forKey: key),
            let value = PropertyListValue.storedValue(from: object)
        else { return nil }
        if let known, known.value.isIdentical(to: value) { return (value, known.isStored) }
        let isStored = !defaults.isOnlyRegistered(key)
        provenance.withLock { provenance in
            if provenance.generation == generation { provenance.decisions[key] = (value, isStored) }
        }
        return (value, isStored)
    }

    /// Drops the decision for `key` (every key when `nil`): a commit or a change notification
    /// may have changed where the value comes from.
    func forgetProvenance(forKey key: String?) {
        provenance.withLock { provenance in
            provenance.generation &+= 1
            if let key { provenance.decisions[key] = nil } else { provenance.decisions = [:] }
        }
    }
}

extension DefaultsBox {
    /// Whether `key`'s value comes from no domain holding stored values, so it was only
    /// registered. The registration domain is not asked, as Foundation on Linux does not list
    /// it; `false` when the store's domain is not known.
    func isOnlyRegistered(_ key: String) -> Bool {
        guard isDomainKnown else { return false }
        if defaults.volatileDomain(forName: UserDefaults.argumentDomain)[key] != nil { return false }
        return storedDomains.allSatisfy { defaults.persistentDomain(forName: $0)?[key] == nil }
    }

    /// Every key a domain holding stored values holds; `nil` when the domain is not known.
    func storedKeys() -> Set<String>? {
        guard isDomainKnown else { return nil }
        var keys = Set(defaults.volatileDomain(forName: UserDefaults.argumentDomain).keys)
        for name in storedDomains {
            if let domain = defaults.persistentDomain(forName: name) { keys.formUnion(domain.keys) }
        }
        return keys
    }

    /// The persistent domains searched before the registration domain, the store's own first.
    private var storedDomains: [String] {
        var domains = [domainName, UserDefaults.globalDomain]
        if let application = Bundle.main.bundleIdentifier, application != domainName {
            domains.insert(application, at: 1)
        }
        return domains
    }
}
