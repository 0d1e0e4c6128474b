import Foundation

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
/// Writes go to `UserDefaults` at once; `UserDefaults` itself decides when to persist them
/// (call ``synchronize()`` to force it). On Linux, `UserDefaults` is neither crash-safe nor
/// safe with several processes: prefer `FileStore` there.
///
/// Changes made through any `UserDefaultsStore` of this process on the same suite are delivered
/// by ``changes()``; changes made to the `UserDefaults` by other code are not observed.
/// ``update(forKey:_:)`` is atomic among the `UserDefaultsStore`s of this process on the same
/// suite.
///
/// Thread-safety: every member may be used from any thread or task.
public final class UserDefaultsStore: Storable {
    /// The defaults the values are kept in.
    public var defaults: UserDefaults { box.defaults }
    /// The suite's name; `nil` for `UserDefaults.standard` or a `UserDefaults` passed in.
    public let suiteName: String?

    private let shared: SuiteState
    private let box: DefaultsBox

    /// The store on `UserDefaults.standard`.
    public static let standard = UserDefaultsStore(UserDefaults.standard)

    /// Creates a store on an existing `UserDefaults` instance.
    ///
    /// Every store created on the same instance shares its lock and its change streams.
    public init(_ defaults: UserDefaults) {
        self.box = DefaultsBox(defaults: defaults)
        self.suiteName = nil
        self.shared = SuiteState.shared(for: ObjectIdentifier(defaults).debugDescription)
    }

    /// Creates a store on the suite named `suiteName` (`UserDefaults(suiteName:)`).
    ///
    /// - Throws: ``StorageError/Code/invalidKey`` when the name is empty, is `.` or `..`,
    ///   contains `/`, `..`, NUL or other control characters, or is refused by `UserDefaults`
    ///   (the app's own bundle identifier, `NSGlobalDomain`).
    public init(suiteName: String) throws {
        try Self.validate(suiteName: suiteName)
        guard let defaults = UserDefaults(suiteName: suiteName) else {
            throw StorageError(.invalidKey, path: suiteName, message: "UserDefaults refused the suite name")
        }
        self.box = DefaultsBox(defaults: defaults)
        self.suiteName = suiteName
        self.shared = SuiteState.shared(for: "suite:" + suiteName)
    }

    /// `UserDefaults domain <suite>`, or `UserDefaults` for the standard defaults.
    public var location: String? {
        suiteName.map { "UserDefaults domain \($0)" } ?? "UserDefaults"
    }

    /// The value stored under `key` in this domain or a registered default, converted to a
    /// ``StoredValue``; `nil` when absent or not a property-list value.
    public func value(forKey key: String) -> StoredValue? {
        defaults.object(forKey: key).flatMap(PropertyListValue.storedValue(from:))
    }

    /// Stores `value` under `key` with `UserDefaults.set(_:forKey:)`, or removes it with
    /// `removeObject(forKey:)` when `value` is `nil`.
    ///
    /// - Throws: ``StorageError/Code/invalidKey`` for an empty key or one with control
    ///   characters; ``StorageError/Code/encodingFailed`` for a value the property-list form
    ///   cannot hold (a string with NUL on Linux). Nothing is written then.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        try validateKeyName(key, path: location)
        try shared.lock.withLock { revision in
            try commit(value, forKey: key, revision: &revision)
        }
    }

    /// The keys of this store's own domain (the suite's persistent domain, or the application
    /// domain for the standard defaults); registered defaults are not included.
    public func keys() -> [String] {
        let domainName = suiteName ?? Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
        if let domain = defaults.persistentDomain(forName: domainName) {
            return Array(domain.keys)
        }
        return []
    }

    /// Reads, changes and writes the value as one step among the stores of this process on
    /// the same suite.
    ///
    /// - Throws: What `body` throws, or what ``setValue(_:forKey:)`` throws; nothing is written.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try validateKeyName(key, path: location)
        return try shared.lock.withLock { revision in
            var value = self.value(forKey: key)
            let result = try body(&value)
            try commit(value, forKey: key, revision: &revision)
            return result
        }
    }

    /// Every change committed through a `UserDefaultsStore` of this process on the same suite.
    public func changes() -> AsyncStream<StoredChange> {
        shared.broadcaster.subscribe()
    }

    /// Asks `UserDefaults` to write pending changes to disk now (`UserDefaults.synchronize()`).
    ///
    /// - Returns: What `synchronize()` returns: `false` when the write failed.
    @discardableResult
    public func synchronize() -> Bool {
        defaults.synchronize()
    }

    /// Removes every key of this store's domain, delivering a change for each.
    public func removeAll() {
        for key in keys() {
            try? setValue(nil, forKey: key)
        }
    }

    /// How many ``changes()`` streams are subscribed now (for tests of observation).
    package var subscriberCount: Int { shared.broadcaster.subscriberCount }

    private func commit(_ value: StoredValue?, forKey key: String, revision: inout UInt64) throws {
        let old = self.value(forKey: key)
        switch (old, value) {
        case (nil, nil): return
        case let (old?, new?) where old.isIdentical(to: new): return
        default: break
        }
        if let value {
            let object: Any
            do {
                object = try PropertyListValue.object(from: value)
            } catch let error as StorageError {
                throw error.adding(key: key, path: location)
            }
            defaults.set(object, forKey: key)
        } else {
            defaults.removeObject(forKey: key)
        }
        revision &+= 1
        shared.broadcaster.publish(StoredChange(key: key, value: value))
    }

    private static func validate(suiteName: String) throws {
        try validateKeyName(suiteName)
        if suiteName == "." || suiteName == ".." || suiteName.contains("/") || suiteName.contains("..") {
            throw StorageError(.invalidKey, path: suiteName, message: "a suite name cannot contain '/' or '..'")
        }
    }
}

/// Holds a `UserDefaults`, which Foundation on Linux does not mark `Sendable`.
private struct DefaultsBox: @unchecked Sendable {
    // Safe because `UserDefaults` is documented as thread-safe ("The UserDefaults class is
    // thread-safe", Apple's UserDefaults reference) and is `Sendable` on Apple platforms; the
    // box only stores the reference and never mutates it.
    let defaults: UserDefaults
}

/// The lock and change streams shared by every store of this process on one suite.
private final class SuiteState: Sendable {
    let lock = Lock<UInt64>(0)
    let broadcaster = ChangeBroadcaster()

    private static let registry = Lock<[String: SuiteState]>([:])

    static func shared(for name: String) -> SuiteState {
        registry.withLock { registry in
            if let state = registry[name] { return state }
            let state = SuiteState()
            registry[name] = state
            return state
        }
    }
}
