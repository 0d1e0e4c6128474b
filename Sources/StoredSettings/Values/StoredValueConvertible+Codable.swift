import Foundation

// MARK: - Codable

extension StoredValueConvertible where Self: Codable {
    /// Decodes the value from its structured tree with ``StoredValueDecoder``: what an empty
    /// conformance of a `Codable` type uses.
    ///
    /// - Throws: ``StorageError`` naming the expected type, the found kind and the coding path:
    ///   ``StorageError/Code/typeMismatch`` (a field of the wrong kind, or missing), or
    ///   ``StorageError/Code/dataCorrupted`` (a value not valid for its type).
    public init(storedValue: StoredValue) throws {
        self = try StoredValueDecoder().decode(Self.self, from: storedValue)
    }

    /// The structured tree of the value, from ``StoredValueEncoder``: a `dictionary` for a
    /// struct or class, an `array` for a collection, the raw form for a single value.
    ///
    /// - Throws: ``StorageError/Code/encodingFailed`` with the coding path (for example `nil`
    ///   inside an array).
    public func storedValue() throws -> StoredValue {
        try StoredValueEncoder().encode(self)
    }
}

// MARK: - RawRepresentable and Codable

extension StoredValueConvertible where Self: RawRepresentable & Codable, RawValue: StoredValueConvertible {
    /// Reads the raw value, then the case it names: a type that is both `RawRepresentable` and
    /// `Codable` is stored as its raw value.
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
