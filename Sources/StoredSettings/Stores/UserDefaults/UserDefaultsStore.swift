public import Foundation

/// A store backed by `UserDefaults`: the standard defaults or a named suite.
///
/// ```swift
/// let settings = AppSettings(store: UserDefaultsStore.standard)
/// let shared = AppSettings(store: try UserDefaultsStore(suiteName: "group.com.example.app"))
/// ```
///
/// Values are kept as property-list objects, so `defaults read` (macOS) shows them as usual.
/// Where a platform's `UserDefaults` cannot hold a value exactly, a representation that can is
/// used: on Linux, whose `UserDefaults` drops fractional seconds, dates are kept as exact ISO
/// 8601 text (``StoredValue/string(_:)``), which `Date` reads back to the bit. `UInt64` values
/// above `Int64.max` are decimal text on every platform.
///
/// ## When a write is saved
///
/// A write that returned has been committed so that it survives the process, on every
/// platform: on Apple platforms `UserDefaults` hands it to `cfprefsd` at once. Foundation on
/// Linux keeps writes in memory until `synchronize()` is called, and never calls it by itself
/// (not at exit either), so on Linux every write (``setValue(_:forKey:)``, ``update(forKey:_:)``)
/// calls `synchronize()` before it returns: the whole domain file
/// (`$XDG_CONFIG_HOME/<suite>.plist`, else `~/.config/<suite>.plist`) is rewritten each time,
/// which makes a write cost about as much as a `FileStore` write (the benchmark's
/// `UserDefaultsStore.setValue` case measures it). A write that cannot be saved throws
/// ``StorageError/Code/io`` and leaves the previous value. A domain file that does not parse
/// as a property-list dictionary is never written over: Foundation reads it as an empty
/// domain, so saving would drop every key in it; the write throws
/// ``StorageError/Code/dataCorrupted`` naming the file, and the file is left as it is.
///
/// On Linux, `UserDefaults` is still neither crash-safe (the file is not synced to disk) nor
/// safe with several processes writing one suite (each rewrites the file from its own copy):
/// prefer `FileStore` there.
///
/// ## The argument domain
///
/// `UserDefaults` reads `-KEY VALUE` pairs from the process's arguments into its argument
/// domain (`UserDefaults.argumentDomain`), which comes first in its search list: on Apple
/// platforms and on Linux alike, `myapp -count 100` makes every read of `count` in that run
/// return 100 (as a string, which ``StoredValueConvertible`` types read leniently), for the
/// standard defaults and for every suite, whatever the domain stores; writes still go to the
/// domain but are hidden from reads for the run. A value from the argument domain is for one
/// run and never reaches the domain file unless the code assigns it explicitly
/// (``setValue(_:forKey:)``): ``update(forKey:_:)`` starts from the stored value, and a write
/// of a value equal to the override is still written. ``keys()`` lists only stored keys.
///
/// ## What ``changes()`` observes
///
/// - Every platform: every change committed through any `UserDefaultsStore` of this process on
///   the same suite (or the same `UserDefaults` instance), once, in commit order.
/// - Apple platforms, in addition: changes made by other code of this process through the
///   store's own ``defaults`` instance (`store.defaults.set(_:forKey:)`; every store on one
///   suite shares that instance), which `UserDefaults.didChangeNotification` announces with
///   the instance as its object. The store observes only its own instance, so a write to one
///   suite never makes another suite look; on each notification it reads the defaults with
///   no lock held (the posting thread may hold any lock), compares them with the values it
///   last saw, and delivers one change per key that differs.
/// - Apple platforms, for a key someone follows on its own
///   (``subscription(readingValueForKey:)``, an observed `@Stored`): changes made by other
///   processes too (an app extension or a widget writing an App Group suite, the `defaults`
///   command), heard by key-value observation of the key on ``defaults``, as swift-sharing's
///   `AppStorageKey` does. A key with a `.` or a leading `@` cannot be observed that way
///   (key-value observation reads them as key paths), and ``changes()`` follows every key,
///   which it cannot observe one by one: for those, other processes' changes and changes
///   through another `UserDefaults` instance are not delivered.
/// - Linux: only changes made through a `UserDefaultsStore` of this process. Foundation on
///   Linux posts no `didChangeNotification` for direct `UserDefaults` writes, and its
///   `UserDefaults` does not see other processes' writes until it reloads.
///
/// ``update(forKey:_:)`` is atomic among the `UserDefaultsStore`s of this process on the same
/// suite; code that writes to the `UserDefaults` directly is not held off by it.
///
/// Thread-safety: every member may be used from any thread or task.
public final class UserDefaultsStore: Storable, ChangeSnapshotting {
    /// The defaults the values are kept in: one instance for every store of this process on
    /// the same suite.
    public var defaults: UserDefaults { box.defaults }
    /// The suite's name; `nil` for `UserDefaults.standard` or a `UserDefaults` passed in.
    public let suiteName: String?

    let shared: SuiteState
    var box: DefaultsBox { shared.defaults }

    /// The store on `UserDefaults.standard`.
    public static let standard = UserDefaultsStore(UserDefaults.standard)

    /// Creates a store on an existing `UserDefaults` instance.
    ///
    /// Every store created on the same instance shares its lock and its change streams.
    ///
    /// Foundation does not tell which suite an instance made with `UserDefaults(suiteName:)`
    /// writes, so for an instance other than `UserDefaults.standard` every value the instance
    /// finds reads as stored, values registered with `register(defaults:)` included, and
    /// ``keys()`` lists the application domain. For a suite, ``init(suiteName:)`` knows its
    /// domain and shares one instance among the stores of the process.
    public init(_ defaults: UserDefaults) {
        self.suiteName = nil
        self.shared = SuiteState.shared(for: ObjectIdentifier(defaults).debugDescription) {
            var box = DefaultsBox(defaults: defaults, domainName: Self.domainName(suiteName: nil))
            box.isDomainKnown = defaults === UserDefaults.standard
            return box
        }
    }

    /// Creates a store on `defaults`, an instance whose own persistent domain is `domainName`
    /// (for tests that pass in an instance of a `UserDefaults` subclass).
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
        // Foundation on Linux traps when the folder it keeps suites in comes from a variable
        // that is not UTF-8: refused here, naming it, as `FileStore(application:)` does.
        let (variables, notUTF8) = EnvironmentStore.processVariables(named: ["XDG_CONFIG_HOME", "HOME"])
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

    /// Creates a store on a suite kept in the property list at `path` + `.plist`, for tests:
    /// they must not create suites in the user's preferences folder (`~/Library/Preferences`
    /// on Apple platforms, `$XDG_CONFIG_HOME` on Linux).
    ///
    /// Both Foundations treat an absolute suite name as the path of the domain's file, without
    /// its `.plist` extension: `CFPreferences` on Apple platforms, and Foundation on Linux,
    /// which writes `<path>.plist` on `synchronize()`. Not for apps: a sandboxed app may not
    /// write outside its container.
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
    /// A value registered with `register(defaults:)` and stored in no domain searched before the
    /// registration domain is a default, not a stored value: it reads as `nil` here and comes
    /// from ``registeredValue(forKey:)``. An argument-domain value (`-key value` on the command
    /// line) is returned.
    public func value(forKey key: String) -> StoredValue? {
        shared.storedValue(forKey: key)
    }

    /// The value registered for `key` with `register(defaults:)`, while no domain searched
    /// before the registration domain holds one; `nil` otherwise.
    ///
    /// A `@Stored` setting reads it while nothing is stored, as `UserDefaults.integer(forKey:)`
    /// and `@AppStorage` do, yet `hasStoredValue` stays `false` and `reset()` removes only the
    /// stored value. For a `UserDefaults` instance passed to ``init(_:)`` other than the
    /// standard one, whose domain Foundation does not tell, registered values read as stored.
    public func registeredValue(forKey key: String) -> StoredValue? {
        shared.registeredValue(forKey: key)
    }

    /// Stores `value` under `key` with `UserDefaults.set(_:forKey:)`, or removes it with
    /// `removeObject(forKey:)` when `value` is `nil`.
    ///
    /// - Throws: ``StorageError/Code/invalidKey`` for an empty key or one with control
    ///   characters, or one canonically equivalent to a different key the domain holds ("Å" as
    ///   U+00C5 next to U+212B: Swift and Foundation would merge them); ``StorageError/Code/encodingFailed`` for a value the property-list form
    ///   cannot hold (a string, or a key inside a value, with a character XML 1.0 cannot hold,
    ///   such as NUL or U+0001, which would make the XML domain file on Linux unreadable, or
    ///   starting with U+FEFF, which Foundation's XML parser drops, so the key or text would
    ///   change); ``StorageError/Code/io`` on Linux when `synchronize()` cannot write the domain
    ///   file, ``StorageError/Code/dataCorrupted`` on Linux when the domain file does not parse
    ///   (see "When a write is saved"). Nothing is changed then.
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
    /// `body` starts from the stored value, never from `UserDefaults`' argument domain: while
    /// `-count 100` is on the command line, `update` of `count` sees the value stored in the
    /// domain (or `nil`), so `update { $0 += 1 }` on a stored 3
    /// writes 4, and reads in this run still return 100 (see "The argument domain").
    ///
    /// `body` may read this store; a write it makes to any store of this process on the same
    /// suite throws ``StorageError/Code/reentrantWrite``, since the update's own write would
    /// replace it.
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

    /// Every change committed from now on, in order, each once (see the type's documentation
    /// for what is observed on each platform).
    public func changes() -> AsyncStream<StoredChange> {
        shared.subscribe()
    }

    /// The value of `key` and a stream of every later change to it, as one step.
    public func subscription(readingValueForKey key: String) -> KeySubscription {
        shared.withWriters {
            // Subscribed before the read: a change another process makes in between is then
            // delivered (perhaps as the value read), not lost.
            let subscription = shared.subscription(key: key)
            return KeySubscription(value: value(forKey: key), subscription)
        }
    }

    /// Calls `onChange` with each change to the keys passed to the subscription's `follow`, once
    /// the writer holds no lock of this suite; on Apple platforms each key followed is also
    /// observed in other processes (key-value observation), as with
    /// ``subscription(readingValueForKey:)``.
    public func keySetSubscription(onChange: @escaping @Sendable (StoredChange) -> Void) -> KeySetSubscription {
        shared.keySetSubscription(onChange: onChange)
    }

    /// Asks `UserDefaults` to write pending changes to disk now (`UserDefaults.synchronize()`).
    ///
    /// - Returns: What `synchronize()` returns: `false` when the write failed.
    @discardableResult
    public func synchronize() -> Bool {
        defaults.synchronize()
    }

    /// Removes every key of this store's domain, delivering a change for each.
    package func removeAll() {
        for key in keys() {
            try? setValue(nil, forKey: key)
        }
    }

    /// How many times a `UserDefaults.didChangeNotification` made this store's suite read the
    /// whole defaults to find what changed (for tests of observation).
    package var changeNotificationReadCount: Int { shared.notificationReads.value }

    /// Whether some store of this process uses the suite named `suiteName` now: suites no
    /// store uses are released, with their notification observer (for tests).
    package static func isSuiteInUse(_ suiteName: String) -> Bool { SuiteState.isShared(name: "suite:" + suiteName) }

    /// How many ``changes()`` streams are subscribed now (for tests of observation).
    package var subscriberCount: Int { shared.broadcaster.subscriberCount }

    /// Returns once exactly `count` ``changes()`` streams are subscribed, or when the calling
    /// task is cancelled (for tests of observation).
    package func waitForSubscriberCount(_ count: Int) async {
        await shared.broadcaster.waitForSubscriberCount(count)
    }

    /// Writes `value` and publishes the change; the caller holds the suite's writers' lock.
    private func commit(_ value: StoredValue?, forKey key: String) throws {
        // Compared with what is stored, not with what reads see: a value equal to an
        // argument-domain override must still be written.
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
        // The domain is a `[String: Any]`: a key canonically equivalent to a stored one with
        // other Unicode scalars would replace that one's value under its name.
        if let domain {
            try checkNoCanonicallyEquivalentKey(key, in: domain, location: location)
        }
        #if !canImport(Darwin)
        let previous = domain?[key]
        #endif
        // Recorded before the write, so the change notification the write posts (Apple
        // platforms) finds nothing new for this key and the change is delivered once.
        shared.willCommit(value, forKey: key)
        write(object, forKey: key)
        shared.forgetProvenance(forKey: key)
        #if !canImport(Darwin)
        // Foundation on Linux keeps writes in memory until `synchronize()`, and never calls it
        // by itself (not at exit either): write the domain file now, so a committed write
        // survives the process as it does on Apple platforms.
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

    /// The value `key` has without `UserDefaults`' argument domain: the one reads see when the
    /// argument domain does not hold the key; otherwise the value in this store's persistent
    /// domain, else `nil` (a registered default is not a stored value).
    private func persistentValue(forKey key: String) -> StoredValue? {
        // Decided afresh: a write behind the stores' back may have stored the registered value.
        shared.forgetProvenance(forKey: key)
        guard defaults.volatileDomain(forName: UserDefaults.argumentDomain)[key] != nil else {
            return value(forKey: key)
        }
        return defaults.persistentDomain(forName: domainName)?[key].flatMap(PropertyListValue.storedValue(from:))
    }

    /// The name of this store's persistent domain: the suite's name, or the application
    /// domain (the bundle identifier, else the process name) for the standard defaults.
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
