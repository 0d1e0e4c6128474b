/// A Swift type that can be kept in a store: it converts to a ``StoredValue`` tree and back.
///
/// The package conforms the standard types (`Bool`, every integer width, `Float`, `Double`,
/// `String`, `Data`, `Date`, `URL`, `UUID`, `Decimal`, `Array`, `Set` and `[String: V]`).
/// Optional settings (`@Stored(key) var x: Int?`) work for every conforming type; `Optional`
/// itself does not conform, so that `default:` on an optional setting is a compile-time error
/// and there is no ambiguous "stored nil" inside collections. Your own types opt in with an
/// empty conformance:
///
/// ```swift
/// enum Theme: String, StoredValueConvertible { case system, light, dark }   // stored as "dark"
/// struct Window: Codable, StoredValueConvertible { var width = 800, height = 600 } // a dictionary
/// ```
///
/// - A `RawRepresentable` type is stored as its raw value.
/// - A `Codable` type is stored as a structured tree (a `dictionary` or `array`, made by
///   ``StoredValueEncoder``), readable and editable in a settings file, never as an opaque blob.
/// - A type that is both uses its raw value.
///
/// <doc:SupportedTypes> lists every type with its stored shape and JSON look.
///
/// Decoding is lenient with text, because values from the environment, the command line and
/// hand-edited files arrive as strings: `Bool` accepts `"true"`, `"yes"`, `"on"`, `"1"` (any
/// case), numbers accept their decimal text, `Date` its ISO 8601 text.
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
    /// A ``Code/typeMismatch`` error for a stored value that does not decode as `type`.
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
package func typeName(_ type: Any.Type) -> String {
    String(describing: type)
}
