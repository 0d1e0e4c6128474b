/// A property wrapper that keeps a value in a ``Storable`` store under a key.
///
/// Declare settings as properties of a ``SettingsGroup``:
///
/// ```swift
/// enum Key: String, StorageKey { case autoReload, theme, lastOpened }
/// enum Theme: String, StoredValueConvertible { case system, light, dark }
///
/// struct AppSettings: SettingsGroup {
///     @Stored(Key.autoReload, default: false) var autoReload: Bool
///     @Stored(Key.theme, default: .system) var theme: Theme
///     @Stored(Key.lastOpened) var lastOpened: Date?
/// }
///
/// let settings = AppSettings()
/// settings.autoReload = true          // written to the store now
/// if settings.theme == .dark { }      // read from the store, default if absent
/// settings.$autoReload.reset()        // removed; reads return the default again
/// ```
///
/// The compiler picks an initializer by the property's type:
/// ``init(_:default:help:secret:store:)`` for a non-optional `Value`, whose default is returned
/// while the key holds nothing and is never written; `init(_:help:secret:store:)` for an
/// `Optional`, where assigning `nil` removes the key. Wrong spellings and types with no stored
/// form are compile-time errors that say what to write instead.
///
/// The store is fixed when the wrapper is created: the `store:` argument, else the one bound by
/// ``SettingsGroup/init(store:)`` or ``StoreContext/withStore(_:operation:)``, else
/// ``StoreContext/defaultStore``.
///
/// The getter and setter never throw: data that does not decode reads as the default, and
/// failures go to ``StorageErrorReporter`` with the stored data left as it is. The projected
/// value (`$autoReload`) offers the throwing ``load()``, ``save(_:)`` and the atomic
/// ``update(_:)``. Reads register with the Observation framework where it exists. See
/// <doc:GettingStarted> and <doc:Observation>.
///
/// Thread-safety: `Stored` is `Sendable`; every member may be used from any thread or task.
@propertyWrapper
public struct Stored<Value: Sendable>: Sendable {
    /// The key the value is stored under.
    public let key: String
    /// The store the value is kept in, fixed when the wrapper was created.
    public let store: any Storable
    /// Everything else, in one shared object, so copying the wrapper retains three references.
    @usableFromInline let setting: StoredSetting<Value>

    /// The value returned while the key holds nothing (`nil` for optional settings).
    public var defaultValue: Value { setting.defaultValue }

    /// A sentence for people about what the setting does, given in the declaration; shown by
    /// `SettingsCommand` and `settingDescriptions()` (StoredSettingsCommandLine).
    package var help: String? { setting.help }
    /// Whether the value is a secret (a token, a password): listings and messages show it as
    /// `<redacted>`.
    package var isSecret: Bool { setting.isSecret }

    /// The size in bytes of ``StoredSetting``, for the benchmark's memory table.
    package static var sharedSettingSize: Int { StoredSetting<Value>.size }

    var cache: DecodedCache<Value> { setting.cache }

    // Inlinable, so a wrapper is made by code specialized for `Value`.
    @inlinable
    init(
        key: String, defaultValue: Value, store: (any Storable)?, codec: StoredCodec<Value>,
        help: String? = nil, isSecret: Bool = false
    ) {
        self.key = key
        self.store = store ?? StoreContext.resolvedStore
        setting = StoredSetting(
            defaultValue: defaultValue, codec: codec, help: help, isSecret: isSecret,
            observed: observationSubject(of: self.store, key: key))
        // A class cannot be a setting's type: say so once, where the setting is created.
        if let refusal = codec.refusal {
            StorageErrorReporter.report(storageError(refusal))
        }
    }

    /// The current value: the stored value decoded as `Value`, else the store's registered
    /// value (UserDefaults' `register(defaults:)`), else the default.
    ///
    /// Setting it writes through to the store before returning; failures go to
    /// ``StorageErrorReporter`` and leave the previous value. An in-place change (`+=`,
    /// `append`) starts from the value ``update(_:)`` would start from and is not atomic; when
    /// the stored data does not decode, it is reported as not saved and nothing is written.
    public var wrappedValue: Value {
        get {
            // Registers the read with the Observation tracking in progress, if any.
            if #available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *), let observed = setting.observed {
                unsafeDowncast(observed, to: ObservedKey.self).access()
            }
            return currentValue(reporting: true)
        }
        nonmutating set {
            do {
                try save(newValue)
            } catch {
                StorageErrorReporter.report(storageError(error))
            }
        }
        // In-place mutation only; plain assignment goes through `set`.
        nonmutating _modify {
            var mutation = beginMutation()
            yield &mutation.value
            finishMutation(mutation)
        }
    }

    /// The wrapper itself, for `$setting.reset()`, `$setting.load()` and the other members.
    public var projectedValue: Stored<Value> { self }

    /// Whether the store holds a value for the key (a default, or a value registered with
    /// UserDefaults' `register(defaults:)`, is not a stored value).
    public var hasStoredValue: Bool {
        store.value(forKey: key) != nil
    }

    /// Removes the stored value; reads return the registered value or the default again.
    /// Failures go to ``StorageErrorReporter``.
    public func reset() {
        do {
            try store.setValue(nil, forKey: key)
        } catch {
            StorageErrorReporter.report(storageError(error))
        }
    }

    /// The current value, like the getter, but throwing instead of falling back to the default
    /// when the stored data does not decode.
    ///
    /// - Returns: The decoded value; when the key holds nothing, the store's registered value
    ///   (``Storable/registeredValue(forKey:)``) decoded, else the default.
    /// - Throws: ``StorageError`` with code ``StorageError/Code/typeMismatch`` naming the key,
    ///   the expected type, the found kind and the store's location.
    public func load() throws -> Value {
        let (stored, revision) = store.valueWithRevision(forKey: key)
        guard let stored else { return try registeredOrDefaultValue() }
        if let revision {
            var value = defaultValue
            switch cache.lookup(revision: revision, into: &value) {
            case .hit: return value
            case .failed(let error): throw error
            case .miss: break
            }
        }
        do {
            return try setting.codec.decode(stored)
        } catch {
            throw storageError(error)
        }
    }

    /// Writes `value`, like the setter, but throwing; `nil` for an optional setting removes the
    /// key.
    ///
    /// - Throws: ``StorageError``: ``StorageError/Code/encodingFailed`` when the value has no
    ///   stored form, or what the store throws (``StorageError/Code/io``,
    ///   ``StorageError/Code/readOnly``, ``StorageError/Code/invalidKey``); the previous value
    ///   stays.
    public func save(_ value: Value) throws {
        do {
            let stored = try setting.codec.encode(value)
            try store.setValue(stored, forKey: key)
        } catch {
            throw storageError(error)
        }
    }

    /// Reads, changes and writes the value as one atomic step of the store, so concurrent
    /// `update { $0 += 1 }` calls never lose a count.
    ///
    /// `body` starts from the value the store's ``Storable/update(forKey:_:)`` hands it,
    /// decoded, else the default; through a ``LayeredStore``, never an environment or
    /// command-line override. Nothing is written when `body` throws or leaves the value as it
    /// was (a default is not persisted; `"yes"` read as `true` stays `"yes"`).
    ///
    /// ```swift
    /// try settings.$launchCount.update { $0 += 1 }
    /// ```
    ///
    /// - Returns: What `body` returns.
    /// - Throws: ``StorageError/Code/typeMismatch`` when the stored data does not decode (it is
    ///   left untouched), what `body` throws, or the write's error.
    /// - Note: `body` may read settings; a write from it to the same store fails with
    ///   ``StorageError/Code/reentrantWrite`` (see <doc:Observation>).
    public func update<R>(_ body: (inout Value) throws -> R) throws -> R {
        do {
            // Captures the setting object, not the generic `self`, to avoid metadata look-ups.
            let (setting, store, key) = (setting, store, key)
            return try store.update(forKey: key) { stored in
                var value = setting.defaultValue
                if let start = stored ?? store.registeredValue(forKey: key) { value = try setting.codec.decode(start) }
                let start = try setting.codec.encode(value)
                let result = try body(&value)
                let encoded = try setting.codec.encode(value)
                // Unchanged: a default stays a default, a stored value keeps its spelling.
                if start.isIdentical(to: encoded) { return result }
                stored = encoded
                return result
            }
        } catch let error as StorageError {
            throw storageError(error)
        }
    }

    /// The value as the getter returns it; reports a decoding failure once per stored revision.
    /// Unspecialized code: avoids `Optional<Value>` and `Result`, whose metadata each read would
    /// look up.
    func currentValue(reporting: Bool) -> Value {
        let (stored, revision) = store.valueWithRevision(forKey: key)
        guard let stored else { return registeredOrDefaultValue(reporting: reporting) }
        switch stored {
        case .array, .dictionary:
            // Decoding a structured value is costly: keep the result until the store changes.
            if let revision { return structuredValue(stored, revision: revision, reporting: reporting) }
        default:
            break
        }
        do {
            return try setting.codec.decode(stored)
        } catch {
            return fallback(after: error, decoding: stored, reporting: reporting)
        }
    }

    /// A structured value from the cache, or decoded and cached at `revision`.
    private func structuredValue(_ stored: StoredValue, revision: UInt64, reporting: Bool) -> Value {
        var value = defaultValue
        switch cache.lookup(revision: revision, into: &value) {
        case .hit: return value
        case .failed: return defaultValue
        case .miss: break
        }
        do {
            value = try setting.codec.decode(stored)
            cache.store(value, revision: revision)
            return value
        } catch {
            let storageError = storageError(error)
            cache.store(failure: storageError, revision: revision)
            // The revision counts every key's changes: report only a new value or error.
            if reporting, cache.shouldReport(storageError, for: stored) {
                StorageErrorReporter.report(storageError)
            }
            return defaultValue
        }
    }

    /// The default after a failed decoding, reporting the failure once per stored value.
    @inline(never)
    func fallback(after error: any Error, decoding stored: StoredValue, reporting: Bool) -> Value {
        let storageError = explainingMismatch(storageError(error), of: stored)
        if reporting, cache.shouldReport(storageError, for: stored) {
            StorageErrorReporter.report(storageError)
        }
        return defaultValue
    }

    /// `error` as a ``StorageError`` naming this setting's key, expected type and store.
    @usableFromInline
    package func storageError(_ error: any Error) -> StorageError {
        guard var storageError = error as? StorageError else {
            return StorageError(
                .encodingFailed, wrapping: error, key: key, location: store.location,
                expectedType: setting.codec.typeName)
        }
        if storageError.key == nil { storageError.key = key }
        if storageError.location == nil {
            storageError.location = (store as? any OriginDescribingStore)?.origin(forKey: key) ?? store.location
        }
        if storageError.code == .typeMismatch, storageError.codingPath.isEmpty {
            storageError.expectedType = setting.codec.typeName
        }
        return storageError
    }
}

/// What a ``Stored`` wrapper holds besides its key and store; subclassing the cache makes it
/// one allocation.
@usableFromInline
final class StoredSetting<Value: Sendable>: DecodedCache<Value>, @unchecked Sendable {
    // Safe: every property here is a `let` of a `Sendable` type (`observed` is an
    // `ObservedKey`); the mutable state is the superclass's, under its lock.
    let defaultValue: Value
    let help: String?
    let isSecret: Bool
    let codec: StoredCodec<Value>
    /// The ``ObservedKey`` reads register on; `nil` without the Observation framework
    /// (`AnyObject`: a stored property cannot have a type of later availability).
    let observed: AnyObject?

    /// Whether an in-place change may reuse the value the previous one kept
    /// (``ExactStoredForm``) instead of decoding the array again.
    var keepsMutatedValues: Bool { Value.self is any ExactStoredForm.Type }

    var cache: DecodedCache<Value> { self }

    /// The object's approximate size: header, the cache's fields and these (keep in step).
    static var size: Int {
        2 * MemoryLayout<Int>.size + cacheFieldsSize
            + MemoryLayout<(Value, String?, Bool, StoredCodec<Value>, AnyObject?)>.size
    }

    @usableFromInline
    init(defaultValue: Value, codec: StoredCodec<Value>, help: String?, isSecret: Bool, observed: AnyObject?) {
        self.defaultValue = defaultValue
        self.codec = codec
        self.help = help
        self.isSecret = isSecret
        self.observed = observed
        super.init(placeholder: defaultValue)
    }
}
