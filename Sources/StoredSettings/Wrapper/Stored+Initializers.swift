// MARK: - Settings with a default

extension Stored where Value: StoredValueConvertible {
    /// Creates a setting that returns `defaultValue` while the key holds nothing.
    ///
    /// The compiler picks this initializer for every non-optional `Value` that conforms to
    /// ``StoredValueConvertible``.
    ///
    /// ```swift
    /// @Stored(Key.launchCount, default: 0) var launchCount: Int
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key the value is stored under.
    ///   - defaultValue: Returned while the key holds nothing; never written to the store.
    ///   - store: The store to use; `nil` resolves it from ``StoreContext`` when the wrapper is
    ///     created.
    public init(_ key: some StorageKey, default defaultValue: Value, store: (any Storable)? = nil) {
        self.init(key: key.name, defaultValue: defaultValue, store: store, codec: .convertible)
    }

    /// Unavailable: a non-optional setting needs a default.
    @available(
        *, unavailable,
        message: "A non-optional setting needs a default, returned while nothing is stored: write @Stored(key, default: value), or make the property optional."
    )
    public init(_ key: some StorageKey, store: (any Storable)? = nil) {
        // Unreachable: the compiler rejects every call to an unavailable initializer.
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
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key the value is stored under.
    ///   - store: The store to use; `nil` resolves it from ``StoreContext`` when the wrapper is
    ///     created.
    public init<Wrapped: StoredValueConvertible>(_ key: some StorageKey, store: (any Storable)? = nil)
    where Value == Wrapped? {
        self.init(key: key.name, defaultValue: nil, store: store, codec: .optional(Wrapped.self))
    }

    /// Unavailable: an optional setting's default is always `nil`.
    @available(
        *, unavailable,
        message: "An optional setting has no default: it reads nil until a value is stored. Remove 'default:', or make the property non-optional to give it a default."
    )
    public init<Wrapped: StoredValueConvertible>(
        _ key: some StorageKey, default defaultValue: Wrapped?, store: (any Storable)? = nil
    ) where Value == Wrapped? {
        self.init(key: key.name, defaultValue: nil, store: store, codec: .optional(Wrapped.self))
    }
}
