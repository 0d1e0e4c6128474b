public import Foundation

/// A store backed by `UserDefaults`: the standard defaults or a named suite.
///
/// ```swift
/// let settings = AppSettings(store: UserDefaultsStore.standard)
/// let shared = AppSettings(store: try UserDefaultsStore(suiteName: "group.com.example.app"))
/// ```
///
/// Values are kept as property-list objects, so `defaults read` shows them as usual; where a
/// platform's `UserDefaults` cannot hold a value exactly (a `Date` on Linux, a `UInt64` above
/// `Int64.max`), they are kept as exact text (see <doc:SupportedTypes>).
///
/// A write that returned survives the process: on Linux, where Foundation never saves by
/// itself, every write calls `synchronize()`, and a domain file that does not parse is never
/// written over. `UserDefaults`' argument domain (`-KEY VALUE`) overrides reads for one run.
/// What ``changes()`` observes differs by platform. See <doc:PlatformNotes>.
///
/// Thread-safety: every member may be used from any thread or task.
public final class UserDefaultsStore: Storable, ChangeSnapshotting {
    /// The defaults the values are kept in: one instance for every store of this process on
    /// the same suite.
    public var defaults: UserDefaults { box.defaults }
    /// The suite's name; `nil` for `UserDefaults.standard` or a `UserDefaults` passed in.
    package let suiteName: String?

    let shared: SuiteState
    var box: DefaultsBox { shared.defaults }

    /// The store on `UserDefaults.standard`.
    public static let standard = UserDefaultsStore(UserDefaults.standard)

    /// Creates a store on an existing `UserDefaults` instance; stores on one instance share its
    /// lock and change streams.
    ///
    /// Foundation does not tell an instance's suite, so for one other than
    /// `UserDefaults.standard` registered values read as stored and ``keys()`` lists the
    /// application domain; prefer ``init(suiteName:)``.
    public init(_ defaults: UserDefaults) {
        self.suiteName = nil
        self.shared = SuiteState.shared(for: ObjectIdentifier(defaults).debugDescription) {
            var box = DefaultsBox(defaults: defaults, domainName: Self.domainName(suiteName: nil))
            box.isDomainKnown = defaults === UserDefaults.standard
            return box
        }
    }

    /// Creates a store on `defaults` whose persistent domain is `domainName` (for tests with a
    /// `UserDefaults` subclass).
    package init(_ defaults: UserDefaults, domainName: String) {
        self.suiteName = domainName
        self.shared = SuiteState.shared(for: ObjectIdentifier(defaults).debugDescription) {
            DefaultsBox(defaults: defaults, domainName: domainName)
        }
    }

    /// Creates a store on the suite named `suiteName` (`UserDefaults(suiteName:)`).
    ///
    /// - Throws: ``StorageError/Code/invalidKey`` when the name is empty, is `.` or `..`,
    ///   contains `/`, `..`, NUL or other control characters, or is refused by `UserDefaults`
    ///   (the app's own bundle identifier, `NSGlobalDomain`); on Linux,
    ///   ``StorageError/Code/dataCorrupted`` naming `XDG_CONFIG_HOME` or `HOME` when the one
    ///   that gives the suites' folder is not UTF-8 (Foundation would stop the process).
    public init(suiteName: String) throws {
        try Self.validate(suiteName: suiteName)
        #if !canImport(Darwin)
        // Foundation on Linux traps when its suites' folder comes from a non-UTF-8 variable.
        let (variables, notUTF8) = ProcessEnvironment.variables(named: ["XDG_CONFIG_HOME", "HOME"])
        if !notUTF8.isEmpty {
            _ = try FileStore.configurationFolder(environment: variables, notUTF8: notUTF8, key: nil)
        }
        #endif
        self.suiteName = suiteName
        self.shared = try SuiteState.shared(for: "suite:" + suiteName) {
            guard let defaults = UserDefaults(suiteName: suiteName) else {
                throw StorageError(.invalidKey, location: suiteName, message: "UserDefaults refused the suite name")
            }
            return DefaultsBox(defaults: defaults, domainName: suiteName)
        }
    }

    /// Creates a store on a suite kept in the property list at `path` + `.plist`, for tests
    /// that must not create suites in the user's preferences folder.
    ///
    /// Both Foundations read an absolute suite name as the domain file's path without `.plist`.
    /// Not for apps: a sandboxed app may not write outside its container.
    ///
    /// - Throws: ``StorageError/Code/invalidKey`` when `path` is not absolute, or names no
    ///   file in a folder, or `UserDefaults` refuses it.
    public init(suiteAtPath path: String) throws {
        guard path.hasPrefix("/"), !path.hasSuffix("/"), !path.contains("/../") else {
            throw StorageError(.invalidKey, location: path, message: "a suite's path must be absolute and name a file")
        }
        self.suiteName = path
        self.shared = try SuiteState.shared(for: "suite:" + path) {
            guard let defaults = UserDefaults(suiteName: path) else {
                throw StorageError(.invalidKey, location: path, message: "UserDefaults refused the suite path")
            }
            return DefaultsBox(defaults: defaults, domainName: path)
        }
    }

    /// `UserDefaults domain <suite>`, or `UserDefaults` for the standard defaults.
    public var location: String? {
        suiteName.map { "UserDefaults domain \($0)" } ?? "UserDefaults"
    }

    /// The value stored under `key`, converted to a ``StoredValue``; `nil` when absent or not a
    /// property-list value.
    ///
    /// A value only registered with `register(defaults:)` reads as `nil` here and comes from
    /// ``registeredValue(forKey:)``; an argument-domain value is returned.
    public func value(forKey key: String) -> StoredValue? {
        shared.storedValue(forKey: key)
    }

    /// The value registered for `key` with `register(defaults:)`, while no domain searched
    /// before the registration domain holds one; `nil` otherwise.
    ///
    /// A `@Stored` setting reads it while nothing is stored, as `@AppStorage` does, yet
    /// `hasStoredValue` stays `false` and `reset()` removes only the stored value.
    public func registeredValue(forKey key: String) -> StoredValue? {
        shared.registeredValue(forKey: key)
    }

    /// Stores `value` under `key` with `UserDefaults.set(_:forKey:)`, or removes it with
    /// `removeObject(forKey:)` when `value` is `nil`.
    ///
    /// - Throws: ``StorageError/Code/invalidKey`` for an empty key, one with control
    ///   characters, or one canonically equivalent to a different key the domain holds;
    ///   ``StorageError/Code/encodingFailed`` for text XML 1.0 cannot hold (NUL, U+0001, a
    ///   leading U+FEFF); on Linux ``StorageError/Code/io`` when `synchronize()` fails and
    ///   ``StorageError/Code/dataCorrupted`` when the domain file does not parse. Nothing is
    ///   changed then.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        try StorageError.validate(key: key, location: location)
        try checkOutsideUpdateBody(forKey: key)
        try shared.withWriters {
            try commit(value, forKey: key)
        }
    }

    /// The keys of this store's own domain (the suite's persistent domain, or the application
    /// domain for the standard defaults); registered defaults are not included.
    public func keys() -> [String] {
        if let domain = defaults.persistentDomain(forName: domainName) {
            return Array(domain.keys)
        }
        return []
    }

    /// Reads, changes and writes the value as one step among the stores of this process on
    /// the same suite.
    ///
    /// `body` starts from the stored value, never from the argument domain. Code writing to the
    /// `UserDefaults` directly is not held off. A write from `body` to any store of this suite
    /// throws ``StorageError/Code/reentrantWrite``.
    ///
    /// - Throws: What `body` throws, or what ``setValue(_:forKey:)`` throws; nothing is written.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try StorageError.validate(key: key, location: location)
        try checkOutsideUpdateBody(forKey: key)
        return try shared.withWriters {
            var value = self.persistentValue(forKey: key)
            let result = try UpdateScope.runBody(ofUpdateOn: [UpdateScope.medium(shared)], key: key) {
                try body(&value)
            }
            try commit(value, forKey: key)
            return result
        }
    }

    /// Throws ``StorageError/Code/reentrantWrite`` when an update body of this suite runs on
    /// this thread.
    private func checkOutsideUpdateBody(forKey key: String) throws {
        do {
            try UpdateScope.checkOutsideUpdateBody(of: [UpdateScope.medium(shared)])
        } catch let error as StorageError {
            throw error.adding(key: key, location: location)
        }
    }

    /// Every change committed from now on, in order, each once (what is observed on each
    /// platform: <doc:PlatformNotes>).
    public func changes() -> AsyncStream<StoredChange> {
        shared.subscribe()
    }

    /// The value of `key` and a stream of every later change to it, as one step.
    public func subscription(readingValueForKey key: String) -> KeySubscription {
        shared.withWriters {
            // Subscribed before the read, so another process's change in between is not lost.
            let subscription = shared.subscription(key: key)
            return KeySubscription(value: value(forKey: key), subscription)
        }
    }

    /// Calls `onChange` with each change to the followed keys once the writer holds no lock of
    /// this suite; on Apple platforms each key is also observed in other processes.
    public func keySetSubscription(onChange: @escaping @Sendable (StoredChange) -> Void) -> KeySetSubscription {
        shared.keySetSubscription(onChange: onChange)
    }

    /// Removes every key of this store's domain, delivering a change for each.
    package func removeAll() {
        for key in keys() {
            try? setValue(nil, forKey: key)
        }
    }

    /// How many change notifications made the suite read the whole defaults (for tests).
    package var changeNotificationReadCount: Int { shared.notificationReads.value }

    /// Whether some store of this process uses the suite named `suiteName` now (for tests).
    package static func isSuiteInUse(_ suiteName: String) -> Bool { SuiteState.isShared(name: "suite:" + suiteName) }

    /// How many ``changes()`` streams are subscribed now (for tests).
    package var subscriberCount: Int { shared.broadcaster.subscriberCount }

    /// Returns once exactly `count` ``changes()`` streams are subscribed, or on cancellation
    /// (for tests).
    package func waitForSubscriberCount(_ count: Int) async {
        await shared.broadcaster.waitForSubscriberCount(count)
    }

    /// Writes `value` and publishes the change; the caller holds the suite's writers' lock.
    private func commit(_ value: StoredValue?, forKey key: String) throws {
        // Compared with what is stored: a value equal to an argument override is still written.
        let old = persistentValue(forKey: key)
        if old.isIdentical(to: value) { return }
        let object: Any?
        do {
            object = try value.map { value in
                // The key is a key of the domain's property list, with the same limits.
                try PropertyListValue.checkXMLCharacters(key, inKey: true)
                return try PropertyListValue.object(from: value)
            }
        } catch let error as StorageError {
            throw error.adding(key: key, location: location)
        }
        #if !canImport(Darwin)
        try checkDomainFile(forKey: key)
        #endif
        let domain = defaults.persistentDomain(forName: domainName)
        // A `[String: Any]` would merge canonically equivalent keys.
        if let domain {
            try checkNoCanonicallyEquivalentKey(key, in: domain, location: location)
        }
        #if !canImport(Darwin)
        let previous = domain?[key]
        #endif
        // Before the write, so the notification it posts finds nothing new: delivered once.
        shared.willCommit(value, forKey: key)
        write(object, forKey: key)
        shared.forgetProvenance(forKey: key)
        #if !canImport(Darwin)
        // Foundation on Linux never saves by itself: save now, so the write survives the process.
        if !defaults.synchronize() {
            write(previous, forKey: key)
            shared.forgetProvenance(forKey: key)
            throw StorageError(
                .io, key: key, location: location,
                message: "UserDefaults could not save the domain file; the change was not saved")
        }
        #endif
        shared.didCommit(visible: self.value(forKey: key), forKey: key)
    }

    /// `UserDefaults.set(_:forKey:)`, or `removeObject(forKey:)` for `nil`.
    func write(_ object: Any?, forKey key: String) {
        if let object {
            defaults.set(object, forKey: key)
        } else {
            defaults.removeObject(forKey: key)
        }
    }

    /// The value of `key` ignoring the argument domain; a registered default is not one.
    private func persistentValue(forKey key: String) -> StoredValue? {
        // Decided afresh: a write behind the stores' back may have stored the registered value.
        shared.forgetProvenance(forKey: key)
        guard defaults.volatileDomain(forName: UserDefaults.argumentDomain)[key] != nil else {
            return value(forKey: key)
        }
        return defaults.persistentDomain(forName: domainName)?[key].flatMap(PropertyListValue.storedValue(from:))
    }

    /// The suite's name, or the application domain for the standard defaults.
    var domainName: String { Self.domainName(suiteName: suiteName) }

    /// ``domainName`` for a store on `suiteName` (`nil`: the application's own defaults).
    static func domainName(suiteName: String?) -> String {
        suiteName ?? Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    }

    private static func validate(suiteName: String) throws {
        try StorageError.validate(key: suiteName)
        if suiteName == "." || suiteName == ".." || suiteName.contains("/") || suiteName.contains("..") {
            throw StorageError(.invalidKey, location: suiteName, message: "a suite name cannot contain '/' or '..'")
        }
    }
}
