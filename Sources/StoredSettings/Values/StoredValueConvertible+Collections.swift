import Foundation

// MARK: - Array

extension Array: StoredValueConvertible where Element: StoredValueConvertible {
    /// Reads `.array`, each element as `Element`; also list text, JSON (`["a","b"]`) or
    /// comma-separated (`a, b`), as <doc:SupportedTypes> describes.
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` for other kinds or malformed list text
    ///   (`1,,2`), or the first element's error with its index in `codingPath`.
    public init(storedValue: StoredValue) throws {
        guard case .array(let items) = try storedValue.parsingListText(expectedType: typeName(Self.self)) else {
            throw StorageError.typeMismatch(Self.self, found: storedValue)
        }
        // A plain loop: unspecialized, `enumerated().map` looks up generic metadata per element.
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for index in items.indices {
            elements.append(
                try StorageError.prefixingCodingPath(String(index)) { try Element(storedValue: items[index]) })
        }
        self = elements
    }

    /// `.array` of the elements' stored forms.
    ///
    /// - Throws: The first element's encoding error.
    public func storedValue() throws -> StoredValue {
        .array(
            try enumerated().map { index, element in
                try StorageError.prefixingCodingPath(String(index)) { try element.storedValue() }
            })
    }
}

// MARK: - Set

extension Set: StoredValueConvertible where Element: StoredValueConvertible {
    /// Reads `.array` (or list text, as `Array` does); duplicates collapse.
    ///
    /// - Throws: As `Array`.
    public init(storedValue: StoredValue) throws {
        guard case .array(let items) = try storedValue.parsingListText(expectedType: typeName(Self.self)) else {
            throw StorageError.typeMismatch(Self.self, found: storedValue)
        }
        // Strings go into a `Set<String>`: unspecialized, each `Set<Element>` insert looks up metadata.
        if Element.self == String.self, let strings = Self.strings(of: items) {
            self = unsafeBitCast(strings, to: Self.self)
            return
        }
        var elements = Set(minimumCapacity: items.count)
        for index in items.indices {
            elements.insert(
                try StorageError.prefixingCodingPath(String(index)) { try Element(storedValue: items[index]) })
        }
        self = elements
    }

    /// The items as a set of strings when every item is a `.string`, else `nil`.
    private static func strings(of items: [StoredValue]) -> Set<String>? {
        var strings = Set<String>(minimumCapacity: items.count)
        for item in items {
            guard case .string(let text) = item else { return nil }
            strings.insert(text)
        }
        return strings
    }

    /// `.array` of the elements' stored forms, in a stable order so files do not change
    /// between runs (see <doc:SupportedTypes>).
    ///
    /// - Throws: The first element's encoding error.
    public func storedValue() throws -> StoredValue {
        // Strings sort as themselves (the same order); a type check, as `as? Set<String>` rehashes.
        if Element.self == String.self {
            return .array(unsafeBitCast(self, to: Set<String>.self).sorted().map(StoredValue.string))
        }
        var items: [StoredValue] = []
        items.reserveCapacity(count)
        for element in self { items.append(try element.storedValue()) }
        items.sort { $0.precedesInSetOrder($1) }
        return .array(items)
    }
}

// MARK: - Dictionary

extension Dictionary: StoredValueConvertible where Key == String, Value: StoredValueConvertible {
    /// Reads `.dictionary`, each value as `Value`; also JSON object text.
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` for other kinds, or the first value's error
    ///   with its key in `codingPath`.
    public init(storedValue: StoredValue) throws {
        guard case .dictionary(let items) = try storedValue.parsingJSONText(as: .dictionary) else {
            throw StorageError.typeMismatch(Self.self, found: storedValue)
        }
        var result: [String: Value] = [:]
        result.reserveCapacity(items.count)
        for (key, item) in items {
            result[key] = try StorageError.prefixingCodingPath(key) { try Value(storedValue: item) }
        }
        self = result
    }

    /// `.dictionary` of the values' stored forms.
    ///
    /// - Throws: The first value's encoding error.
    public func storedValue() throws -> StoredValue {
        var result: [String: StoredValue] = [:]
        result.reserveCapacity(count)
        for (key, value) in self {
            result[key] = try StorageError.prefixingCodingPath(key) { try value.storedValue() }
        }
        return .dictionary(result)
    }
}

// MARK: - RawRepresentable

extension StoredValueConvertible where Self: RawRepresentable, RawValue: StoredValueConvertible {
    /// Reads the raw value, then the case or value it names.
    ///
    /// - Throws: The raw value's error, or ``StorageError/Code/typeMismatch`` naming this type
    ///   when no value has that raw value.
    public init(storedValue: StoredValue) throws {
        self = try decodeRawRepresentable(Self.self, from: storedValue)
    }

    /// The raw value's stored form.
    ///
    /// - Throws: What the raw value's `storedValue()` throws (``StorageError/Code/encodingFailed``).
    public func storedValue() throws -> StoredValue { try rawValue.storedValue() }
}

// MARK: - Helpers

/// The value of `type` whose raw value is stored in `storedValue`; text with white space around
/// a raw value reads as that value, after an exact match.
///
/// - Throws: The raw value's error, or ``StorageError/Code/typeMismatch`` naming `type` when no
///   value has that raw value.
func decodeRawRepresentable<T: RawRepresentable>(_ type: T.Type, from storedValue: StoredValue) throws -> T
where T.RawValue: StoredValueConvertible {
    let raw = try T.RawValue(storedValue: storedValue)
    if let value = T(rawValue: raw) { return value }
    if case .string(let text) = storedValue,
        let trimmed = try? T.RawValue(storedValue: .string(text.trimmingWhitespace)),
        let value = T(rawValue: trimmed)
    {
        return value
    }
    throw StorageError(
        .typeMismatch, expectedType: typeName(T.self), foundKind: storedValue.kind,
        message: "the value is not one of its raw values"
    )
}

extension StorageError {
    /// Runs `body`, adding `component` in front of the coding path of a thrown `StorageError`.
    /// `component` is only evaluated when `body` throws, so an index costs no text per element.
    static func prefixingCodingPath<R>(_ component: @autoclosure () -> String, _ body: () throws -> R) throws
        -> R
    {
        do {
            return try body()
        } catch var error as StorageError {
            error.codingPath.insert(component(), at: 0)
            throw error
        }
    }
}

extension StoredValue {
    package enum ContainerKind { case array, dictionary }

    /// For a `.string` holding JSON array or object text, the parsed container; else `self`.
    /// Text from the environment or the command line spells lists and structures this way.
    package func parsingJSONText(as kind: ContainerKind) throws -> StoredValue {
        guard case .string(let text) = self else { return self }
        let first = text.first { !$0.isWhitespace }
        guard (kind == .array && first == "[") || (kind == .dictionary && first == "{") else { return self }
        return (try? StoredValueJSON.parse(Data(text.utf8))) ?? self
    }

    /// For a `.string`, the list it spells: JSON array text when it starts with `[`, else
    /// comma-separated items (``ListText``); text starting with `{` and other values stay as
    /// they are, for the caller to refuse.
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` for malformed comma-separated text.
    package func parsingListText(expectedType: @autoclosure () -> String) throws -> StoredValue {
        guard case .string(let text) = self else { return self }
        switch text.first(where: { !$0.isWhitespace }) {
        case "[": return try parsingJSONText(as: .array)
        case "{": return self
        default: break
        }
        return .array(try ListText.items(of: text, expectedType: expectedType()).map(StoredValue.string))
    }
}
