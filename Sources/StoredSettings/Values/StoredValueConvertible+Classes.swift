// MARK: - Classes are refused

extension StoredValueConvertible where Self: Codable & AnyObject {
    /// Unavailable: a class cannot be a setting's type.
    ///
    /// An edit made through a class's reference (`settings.box.name = "x"`) changes the object
    /// only, never the store, so it would be lost without a word. An empty `StoredValueConvertible`
    /// conformance of a `Codable` class therefore does not compile; make the type a struct. (A
    /// class with a conformance written by hand compiles, and is refused with
    /// ``StorageError/Code/unsupportedType`` when its setting is created and on every use.)
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
