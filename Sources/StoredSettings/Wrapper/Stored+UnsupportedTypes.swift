// Unavailable `@Stored` initializers for common types with no stored form, so the compiler
// names the type and what to store instead of a generic-constraint mismatch. Ranked last, they
// are picked only when nothing else fits. `.ci/compile-errors` checks each message.

extension Stored {
    // Float80 exists only on x86 (the standard library's own condition).
    #if (arch(i386) || arch(x86_64)) && !os(Windows) && !os(Android)
    /// Unavailable: `Float80` has no stored form.
    @available(
        *, unavailable,
        message: "Float80 is not a supported setting type; store a Double"
    )
    public init(
        _ key: some StorageKey, default defaultValue: Float80, help: String? = nil, secret: Bool = false,
        store: (any Storable)? = nil
    ) where Value == Float80 {
        self.init(
            key: key.name, defaultValue: defaultValue, store: store,
            codec: .unsupported(Float80.self, advice: "store a Double")
        )
    }

    /// Unavailable: `Float80` has no stored form.
    @available(
        *, unavailable,
        message: "Float80 is not a supported setting type; store a Double"
    )
    public init(
        _ key: some StorageKey, help: String? = nil, secret: Bool = false, store: (any Storable)? = nil
    ) where Value == Float80? {
        self.init(
            key: key.name, defaultValue: nil, store: store,
            codec: .unsupported(Float80.self, advice: "store a Double")
        )
    }
    #endif

    /// Unavailable: `Character` has no stored form.
    @available(
        *, unavailable,
        message: "Character is not a supported setting type; store a String"
    )
    public init(
        _ key: some StorageKey, default defaultValue: Character, help: String? = nil, secret: Bool = false,
        store: (any Storable)? = nil
    ) where Value == Character {
        self.init(
            key: key.name, defaultValue: defaultValue, store: store,
            codec: .unsupported(Character.self, advice: "store a String")
        )
    }

    /// Unavailable: `Character` has no stored form.
    @available(
        *, unavailable,
        message: "Character is not a supported setting type; store a String"
    )
    public init(
        _ key: some StorageKey, help: String? = nil, secret: Bool = false, store: (any Storable)? = nil
    ) where Value == Character? {
        self.init(
            key: key.name, defaultValue: nil, store: store,
            codec: .unsupported(Character.self, advice: "store a String")
        )
    }

    /// Unavailable: `Substring` has no stored form.
    @available(
        *, unavailable,
        message: "Substring is not a supported setting type; store a String"
    )
    public init(
        _ key: some StorageKey, default defaultValue: Substring, help: String? = nil, secret: Bool = false,
        store: (any Storable)? = nil
    ) where Value == Substring {
        self.init(
            key: key.name, defaultValue: defaultValue, store: store,
            codec: .unsupported(Substring.self, advice: "store a String")
        )
    }

    /// Unavailable: `Substring` has no stored form.
    @available(
        *, unavailable,
        message: "Substring is not a supported setting type; store a String"
    )
    public init(
        _ key: some StorageKey, help: String? = nil, secret: Bool = false, store: (any Storable)? = nil
    ) where Value == Substring? {
        self.init(
            key: key.name, defaultValue: nil, store: store,
            codec: .unsupported(Substring.self, advice: "store a String")
        )
    }

    /// Unavailable: `Int128` has no stored form.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @available(
        *, unavailable,
        message: "Int128 is not a supported setting type; store an Int64, or a String of its digits"
    )
    public init(
        _ key: some StorageKey, default defaultValue: Int128, help: String? = nil, secret: Bool = false,
        store: (any Storable)? = nil
    ) where Value == Int128 {
        self.init(
            key: key.name, defaultValue: defaultValue, store: store,
            codec: .unsupported(Int128.self, advice: "store an Int64, or a String of its digits")
        )
    }

    /// Unavailable: `Int128` has no stored form.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @available(
        *, unavailable,
        message: "Int128 is not a supported setting type; store an Int64, or a String of its digits"
    )
    public init(
        _ key: some StorageKey, help: String? = nil, secret: Bool = false, store: (any Storable)? = nil
    ) where Value == Int128? {
        self.init(
            key: key.name, defaultValue: nil, store: store,
            codec: .unsupported(Int128.self, advice: "store an Int64, or a String of its digits")
        )
    }

    /// Unavailable: `UInt128` has no stored form.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @available(
        *, unavailable,
        message: "UInt128 is not a supported setting type; store a UInt64, or a String of its digits"
    )
    public init(
        _ key: some StorageKey, default defaultValue: UInt128, help: String? = nil, secret: Bool = false,
        store: (any Storable)? = nil
    ) where Value == UInt128 {
        self.init(
            key: key.name, defaultValue: defaultValue, store: store,
            codec: .unsupported(UInt128.self, advice: "store a UInt64, or a String of its digits")
        )
    }

    /// Unavailable: `UInt128` has no stored form.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @available(
        *, unavailable,
        message: "UInt128 is not a supported setting type; store a UInt64, or a String of its digits"
    )
    public init(
        _ key: some StorageKey, help: String? = nil, secret: Bool = false, store: (any Storable)? = nil
    ) where Value == UInt128? {
        self.init(
            key: key.name, defaultValue: nil, store: store,
            codec: .unsupported(UInt128.self, advice: "store a UInt64, or a String of its digits")
        )
    }

    /// Unavailable: a dictionary whose keys are not `String` has no stored form.
    @available(
        *, unavailable,
        message: "A dictionary setting needs String keys; use [String: Value], with each key converted to a String"
    )
    public init<DictionaryKey: Hashable, Element>(
        _ key: some StorageKey, default defaultValue: [DictionaryKey: Element], help: String? = nil,
        secret: Bool = false, store: (any Storable)? = nil
    ) where Value == [DictionaryKey: Element] {
        self.init(
            key: key.name, defaultValue: defaultValue, store: store,
            codec: .unsupported(Value.self, advice: "use [String: Value], with each key converted to a String")
        )
    }

    /// Unavailable: a dictionary whose keys are not `String` has no stored form.
    @available(
        *, unavailable,
        message: "A dictionary setting needs String keys; use [String: Value], with each key converted to a String"
    )
    public init<DictionaryKey: Hashable, Element>(
        _ key: some StorageKey, help: String? = nil, secret: Bool = false, store: (any Storable)? = nil
    ) where Value == [DictionaryKey: Element]? {
        self.init(
            key: key.name, defaultValue: nil, store: store,
            codec: .unsupported(
                [DictionaryKey: Element].self, advice: "use [String: Value], with each key converted to a String"
            )
        )
    }
}
