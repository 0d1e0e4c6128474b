// The two families of `@Stored` declarations, each with one initializer, and one unavailable
// initializer per wrong spelling so that the compiler names the mistake in the package's words.
// The unsupported types with a message of their own are in Stored+UnsupportedTypes.swift.

// MARK: - Settings with a default

extension Stored where Value: StoredValueConvertible {
    /// Creates a setting that returns `defaultValue` while the key holds nothing.
    ///
    /// The compiler picks this initializer for every non-optional `Value` that conforms to
    /// ``StoredValueConvertible``.
    ///
    /// ```swift
    /// @Stored(Key.launchCount, default: 0) var launchCount: Int
    /// @Stored(Key.autoReload, default: false, help: "Reload files when they change.") var autoReload: Bool
    /// @Stored(Key.apiToken, default: "", secret: true) var apiToken: String
    /// ```
    ///
    /// The help text is shown by `SettingsCommand` and `settingDescriptions()` (StoredSettingsCommandLine);
    /// a secret's value prints as `<redacted>` in every listing and message.
    ///
    /// - Parameters:
    ///   - key: The key the value is stored under.
    ///   - defaultValue: Returned while the key holds nothing; never written to the store.
    ///   - help: One sentence for people about what the setting does; `nil` for none.
    ///   - secret: Whether to hide the value in listings and messages (a token, a password).
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
        // Unreachable: the compiler rejects every call to an unavailable initializer, and there
        // is no default to build a wrapper from.
        preconditionFailure("unavailable")
    }
}

// MARK: - Optional settings

extension Stored {
    /// Creates an optional setting: `nil` while the key holds nothing; assigning `nil` removes
    /// the key.
    ///
    /// The compiler picks this initializer when the property's type is an `Optional` of a
    /// ``StoredValueConvertible`` type.
    ///
    /// ```swift
    /// @Stored(Key.lastOpened) var lastOpened: Date?
    /// @Stored(Key.lastOpened, help: "When the journal was last opened.") var lastOpened: Date?
    /// @Stored(Key.apiToken, secret: true) var apiToken: String?
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key the value is stored under.
    ///   - help: One sentence for people about what the setting does; `nil` for none.
    ///   - secret: Whether to hide the value in listings and messages (a token, a password).
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
