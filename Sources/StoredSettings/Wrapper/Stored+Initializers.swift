// The two `@Stored` initializer families, each with an unavailable initializer per wrong
// spelling so the compiler names the mistake; unsupported types are in Stored+UnsupportedTypes.

// MARK: - Settings with a default

extension Stored where Value: StoredValueConvertible {
    /// Creates a setting that returns `defaultValue` while the key holds nothing.
    ///
    /// The compiler picks it for every non-optional ``StoredValueConvertible`` `Value`.
    ///
    /// ```swift
    /// @Stored(Key.launchCount, default: 0) var launchCount: Int
    /// @Stored(Key.apiToken, default: "", secret: true) var apiToken: String
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key the value is stored under.
    ///   - defaultValue: Returned while the key holds nothing; never written to the store.
    ///   - help: One sentence for people about what the setting does, shown by
    ///     `SettingsCommand` and `settingDescriptions()` (StoredSettingsCommandLine); `nil` for none.
    ///   - secret: Whether listings and messages show the value as `<redacted>`.
    ///   - store: The store to use; `nil` resolves it from ``StoreContext`` when the wrapper is
    ///     created.
    @inlinable
    public init(
        _ key: some StorageKey, default defaultValue: Value, help: String? = nil, secret: Bool = false,
        store: (any Storable)? = nil
    ) {
        self.init(
            key: key.name, defaultValue: defaultValue, store: store, codec: .convertible,
            help: help, isSecret: secret
        )
    }

    /// Unavailable: a non-optional setting needs a default.
    @available(
        *, unavailable,
        message:
            "A non-optional setting needs a default, returned while nothing is stored: write @Stored(key, default: value), or make the property optional."
    )
    public init(_ key: some StorageKey, help: String? = nil, secret: Bool = false, store: (any Storable)? = nil) {
        // Unreachable: the compiler rejects every call.
        preconditionFailure("unavailable")
    }
}

// MARK: - Optional settings

extension Stored {
    /// Creates an optional setting: `nil` while the key holds nothing; assigning `nil` removes
    /// the key.
    ///
    /// The compiler picks it when the property's type is an `Optional` of a
    /// ``StoredValueConvertible`` type.
    ///
    /// ```swift
    /// @Stored(Key.lastOpened) var lastOpened: Date?
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key the value is stored under.
    ///   - help: One sentence for people about what the setting does; `nil` for none.
    ///   - secret: Whether listings and messages show the value as `<redacted>`.
    ///   - store: The store to use; `nil` resolves it from ``StoreContext`` when the wrapper is
    ///     created.
    @inlinable
    public init<Wrapped: StoredValueConvertible>(
        _ key: some StorageKey, help: String? = nil, secret: Bool = false, store: (any Storable)? = nil
    ) where Value == Wrapped? {
        self.init(
            key: key.name, defaultValue: nil, store: store, codec: .optional(Wrapped.self),
            help: help, isSecret: secret
        )
    }

    /// Unavailable: an optional setting's default is always `nil`.
    @available(
        *, unavailable,
        message:
            "An optional setting has no default: it reads nil until a value is stored. Remove 'default:', or make the property non-optional to give it a default."
    )
    public init<Wrapped: StoredValueConvertible>(
        _ key: some StorageKey, default defaultValue: Wrapped?, help: String? = nil, secret: Bool = false,
        store: (any Storable)? = nil
    ) where Value == Wrapped? {
        self.init(key: key.name, defaultValue: nil, store: store, codec: .optional(Wrapped.self))
    }
}
