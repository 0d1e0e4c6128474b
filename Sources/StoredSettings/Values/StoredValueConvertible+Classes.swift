// MARK: - Classes are refused

extension StoredValueConvertible where Self: Codable & AnyObject {
    /// Unavailable: a class cannot be a setting's type, because an edit through its reference
    /// never reaches the store; make the type a struct (see <doc:SupportedTypes>).
    @available(
        *, unavailable,
        message: "a class cannot be a setting's type: edits through its reference would never be saved; use a struct"
    )
    public init(storedValue: StoredValue) throws {
        throw StorageError(.unsupportedType, expectedType: typeName(Self.self))
    }

    /// Unavailable: a class cannot be a setting's type, as for `init(storedValue:)` above.
    @available(
        *, unavailable,
        message: "a class cannot be a setting's type: edits through its reference would never be saved; use a struct"
    )
    public func storedValue() throws -> StoredValue {
        throw StorageError(.unsupportedType, expectedType: typeName(Self.self))
    }
}
