import Foundation

extension DefaultsBox {
    /// Whether `key`'s value, which `object(forKey:)` found, comes from none of the domains
    /// that hold stored values: then it was registered (`UserDefaults.register(defaults:)`), a
    /// default, which the store does not return, so a `@Stored` setting's `hasStoredValue` is
    /// `false` and its own default applies.
    ///
    /// The domains asked, cheapest first: the argument domain, the store's persistent domain,
    /// the application's (which a suite's search list includes on Apple platforms) and the
    /// global domain. The registration domain itself is not asked: Foundation on Linux does not
    /// list it among the volatile domains.
    func isOnlyRegistered(_ key: String) -> Bool {
        if defaults.volatileDomain(forName: UserDefaults.argumentDomain)[key] != nil { return false }
        return storedDomains.allSatisfy { defaults.persistentDomain(forName: $0)?[key] == nil }
    }

    /// Every key some domain holding stored values holds (see ``isOnlyRegistered(_:)``): the
    /// keys of `dictionaryRepresentation()` that are not registered defaults.
    func storedKeys() -> Set<String> {
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
