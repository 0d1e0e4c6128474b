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
/// The compiler picks an initializer by the property's type, one per family, each taking an
/// optional `help:` sentence and `secret:` flag:
/// - ``init(_:default:help:secret:store:)`` for a non-optional `Value`: the default is returned
///   while the key holds nothing, and is never written (changing it in code changes it for every
///   user who never set the value, like `UserDefaults.register(defaults:)`).
/// - `init(_:help:secret:store:)` for an `Optional` value: the default is `nil`, assigning `nil`
///   removes the key. Writing `default:` on an optional setting is a compile-time error, and so
///   are a non-optional setting without a default and the common types with no stored form
///   (`Float80`, `Character`, `Substring`, `Int128`, `UInt128`, a dictionary whose keys are not
///   `String`): each error says what to write instead.
///
/// The store is chosen when the wrapper is created: the `store:` argument, else the store of
/// ``SettingsGroup/init(store:)`` or ``StoreContext/withStore(_:operation:)``, else
/// ``StoreContext/defaultStore``.
///
/// The getter never throws: when the stored data does not decode as `Value` it returns the
/// default, reports the error once to ``StorageErrorReporter`` and leaves the stored data
/// untouched. The setter reports write failures the same way and leaves the previous value in
/// place. Use the projected value (`$autoReload`) for ``load()`` and ``save(_:)``, which throw.
///
/// An in-place mutation (`settings.count += 1`, `settings.map[k] = v`,
/// `settings.list.append(x)`, `settings.profile.name = n`) starts from the value an
/// ``update(_:)`` body would start from and writes the result, unless it changed nothing. It
/// is two steps, not atomic: use `settings.$count.update { $0 += 1 }` when several writers may
/// race. When the stored data does not decode, the mutation is computed from the default, so
/// its result is not written: the error is reported, naming key, type and store, and the data
/// stays. A plain assignment (`settings.count = 5`) is the user's new value and replaces
/// unreadable data.
///
/// Every read of the value registers with the Observation framework where it exists (macOS 14,
/// iOS 17, tvOS 17, watchOS 10, visionOS 1, Linux): a SwiftUI `body` or `withObservationTracking`
/// that reads a setting is told, once, after a committed change of its key by any writer the
/// store observes, outside every lock; an `@Observable` class holds settings as
/// `@ObservationIgnored @Stored(...)` with no other code (see <doc:Observation>).
///
/// Thread-safety: `Stored` is `Sendable`; every member may be used from any thread or task.
@propertyWrapper
public struct Stored<Value: Sendable>: Sendable {
    /// The key the value is stored under.
    public let key: String
    /// The store the value is kept in, fixed when the wrapper was created.
    public let store: any Storable
    /// The rest of what the wrapper holds, in one shared immutable object: a call from another
    /// module copies the generic wrapper, and this keeps that copy to three reference counts
    /// (the key and the store, which every read and write use directly, and this) instead of
    /// one per field.
    @usableFromInline let setting: StoredSetting<Value>

    /// The value returned while the key holds nothing (`nil` for optional settings).
    public var defaultValue: Value { setting.defaultValue }

    /// A sentence for people about what the setting does, given in the declaration; shown by
    /// `SettingsCommand` and `settingDescriptions()` (StoredSettingsCommandLine).
    public var help: String? { setting.help }
    /// Whether the value is a secret (a token, a password): listings and messages show it as
    /// `<redacted>`.
    public var isSecret: Bool { setting.isSecret }

    /// The size in bytes of the object that holds a wrapper's default, documentation,
    /// conversions and cache, shared by every copy of the wrapper; for the benchmark's memory
    /// table (``StoredSetting/size``).
    package static var sharedSettingSize: Int { StoredSetting<Value>.size }

    var cache: DecodedCache<Value> { setting.cache }

    // Inlinable, as the public initializers and the codecs are: a wrapper is then made by code
    // specialized for `Value` (closures without contexts, no generic metadata look-ups).
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
    /// Setting it writes through to the store before returning. Failures go to
    /// ``StorageErrorReporter``; a failed write leaves the previous value.
    ///
    /// Changing it in place (`+=`, `append`, a subscript or a field) starts from the value
    /// ``update(_:)`` would start from (through a ``LayeredStore``: the writable layer's, not
    /// an environment or command-line override) and writes the result when it differs. When
    /// the stored data does not decode, the change is reported as not saved and nothing is
    /// written.
    public var wrappedValue: Value {
        get {
            // Registers the read with a tracking in progress (a SwiftUI `body`,
            // `withObservationTracking`); the subject was found when the wrapper was made.
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
        // Swift routes in-place mutation through this accessor and plain assignment through
        // `set`: only here is the value changed one the caller did not choose whole.
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
    ///
    /// Failures (a read-only store, an I/O error) go to ``StorageErrorReporter``.
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

    /// Writes `value`, like the setter, but throwing.
    ///
    /// Assigning `nil` to an optional setting removes the key.
    ///
    /// - Throws: ``StorageError``: ``StorageError/Code/encodingFailed`` when the value has no
    ///   stored form, or what the store throws (``StorageError/Code/io``,
    ///   ``StorageError/Code/readOnly``, ``StorageError/Code/invalidKey``). The previous value
    ///   then stays, in memory and in the medium.
    public func save(_ value: Value) throws {
        do {
            let stored = try setting.codec.encode(value)
            try store.setValue(stored, forKey: key)
        } catch {
            throw storageError(error)
        }
    }

    /// Reads, changes and writes the value as one atomic step of the store: no other write to
    /// the store lands in between, so concurrent `update { $0 += 1 }` calls never lose a count.
    ///
    /// `body` starts from the value the store's ``Storable/update(forKey:_:)`` hands it,
    /// decoded (the default when the key holds nothing). Through a ``LayeredStore`` that is the
    /// writable layer's value (or a lower layer's), never an environment or command-line
    /// override: an override is for reads of this run only and never reaches storage through
    /// an update. When `body` throws, nothing is written. When it leaves the value as it was,
    /// nothing is written either: a default is not persisted, and a stored value keeps its
    /// stored form (`"yes"` read as `true` stays `"yes"`).
    ///
    /// ```swift
    /// try settings.$launchCount.update { $0 += 1 }
    /// ```
    ///
    /// - Returns: What `body` returns.
    /// - Throws: ``StorageError/Code/typeMismatch`` when the stored data does not decode (it is
    ///   left untouched), what `body` throws, or the write's error.
    /// - Note: `body` runs while the store holds off its other writers. It may read settings,
    ///   of this store too. A write from the body to the same store (another setting's setter,
    ///   `save`, a nested `update`) fails with ``StorageError/Code/reentrantWrite`` on every
    ///   backend: a setter reports it, `save` and `update` throw it. Change other settings
    ///   after `update` returns.
    public func update<R>(_ body: (inout Value) throws -> R) throws -> R {
        do {
            // The body captures the setting object, not `self`: capturing the generic wrapper
            // would look up the metadata of `Stored<Value>` on every update, and so would
            // `stored.map(codec.decode)` that of `Optional<Value>` (this code is unspecialized).
            let (setting, store, key) = (setting, store, key)
            return try store.update(forKey: key) { stored in
                var value = setting.defaultValue
                if let start = stored ?? store.registeredValue(forKey: key) { value = try setting.codec.decode(start) }
                let start = try setting.codec.encode(value)
                let result = try body(&value)
                let encoded = try setting.codec.encode(value)
                // A value `body` left as it was is not written: a default stays a default
                // (reading never writes), and a stored value keeps its spelling (`"yes"` read
                // as `true` stays `"yes"`).
                if start.isIdentical(to: encoded) { return result }
                stored = encoded
                return result
            }
        } catch let error as StorageError {
            throw storageError(error)
        }
    }

    /// The value as the getter returns it; reports a decoding failure once per stored revision.
    ///
    /// The read path of every getter. It runs as unspecialized generic code, so it avoids
    /// generic wrapper types (`Optional<Value>`, `Result<Value, _>`): each would cost a runtime
    /// metadata lookup per read, several times the cost of the lookup in the store.
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
            // The revision counts changes to every key: report a failure only when this key's
            // value or the error is new, so a broken value is reported once.
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

/// What one ``Stored`` wrapper holds besides its key and store, fixed when it is created: its
/// default, documentation and conversions; the decoded-value cache is its superclass, so a
/// wrapper allocates one object.
@usableFromInline
final class StoredSetting<Value: Sendable>: DecodedCache<Value>, @unchecked Sendable {
    // Safe because every stored property here is a `let` of a `Sendable` type (`observed` is
    // an `ObservedKey`, which is); the mutable state is the superclass's, guarded by its lock.
    let defaultValue: Value
    let help: String?
    let isSecret: Bool
    let codec: StoredCodec<Value>
    /// The ``ObservedKey`` reads register on; `nil` without the Observation framework. Typed
    /// `AnyObject` because a stored property cannot have a type of later availability.
    let observed: AnyObject?

    /// Whether an in-place change may start from the value the previous one kept
    /// (``ExactStoredForm``), instead of decoding the stored array again; asked only by
    /// in-place changes, so creating a wrapper looks up no conformance.
    var keepsMutatedValues: Bool { Value.self is any ExactStoredForm.Type }

    /// The decoded-value cache: the object itself.
    var cache: DecodedCache<Value> { self }

    /// The object's size, about: a Swift object's two-word header plus the cache's fields and
    /// these, laid out as tuples of the same types in the same order (keep them in step).
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
