/// A Swift type that can be kept in a store: it converts to a ``StoredValue`` tree and back.
///
/// The standard types conform. Your own types opt in with an empty conformance and are stored
/// as their raw value (`RawRepresentable`, also when `Codable`) or as a structured tree
/// (`Codable`, through ``StoredValueEncoder``):
///
/// ```swift
/// enum Theme: String, StoredValueConvertible { case system, light, dark }   // stored as "dark"
/// struct Window: Codable, StoredValueConvertible { var width = 800, height = 600 } // a dictionary
/// ```
///
/// `Optional` does not conform, so `default:` on an optional setting is a compile-time error.
/// Decoding is lenient with text, as the environment, the command line and hand-edited files
/// give it. <doc:SupportedTypes> lists every type, its stored shape and the text it reads.
///
/// Conforming types must round-trip exactly: `try T(storedValue: x.storedValue()) == x`.
public protocol StoredValueConvertible: Sendable {
    /// Creates a value from its stored form.
    ///
    /// - Throws: ``StorageError`` with code ``StorageError/Code/typeMismatch`` when the stored
    ///   value does not have a shape this type accepts (naming the expected type and the found
    ///   kind), or ``StorageError/Code/dataCorrupted`` when it has the shape but not a valid
    ///   content.
    init(storedValue: StoredValue) throws

    /// The stored form of this value.
    ///
    /// - Throws: ``StorageError`` with code ``StorageError/Code/encodingFailed`` when the value
    ///   cannot be represented (for example `nil` inside an array).
    func storedValue() throws -> StoredValue
}

extension StorageError {
    /// A ``Code/typeMismatch`` error for a stored value that does not decode as `type`: what a
    /// hand-written ``StoredValueConvertible/init(storedValue:)`` throws.
    ///
    /// - Parameters:
    ///   - type: The Swift type that was expected.
    ///   - value: The stored value found; only its kind is kept, never its content.
    ///   - codingPath: Where inside a structured value the mismatch is.
    public static func typeMismatch(
        _ type: Any.Type,
        found value: StoredValue,
        codingPath: [String] = []
    ) -> StorageError {
        StorageError(
            .typeMismatch, expectedType: typeName(type), foundKind: value.kind, codingPath: codingPath
        )
    }
}

/// The short name of a type for messages: `Int`, `Array<String>`, `Profile`.
func typeName(_ type: Any.Type) -> String {
    String(describing: type)
}
