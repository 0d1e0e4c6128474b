/// A name under which a setting is stored.
///
/// Declare your keys as a `String`-backed enum and add an empty conformance; the case's raw
/// value is the stored name. A plain `String` is a key too.
///
/// ```swift
/// enum Key: String, StorageKey { case autoReload, theme }
/// let name = Key.autoReload.name   // "autoReload"
/// ```
///
/// Every name works, including dots, slashes, spaces, `@` and emoji. Stores reject the empty
/// name and names with NUL or other control characters with ``StorageError/Code/invalidKey``.
///
/// - Note: Conforming types must be `Sendable`; `name` must return the same string every time.
public protocol StorageKey: Sendable {
    /// The string the setting is stored under.
    var name: String { get }
}

extension StorageKey where Self: RawRepresentable, RawValue == String {
    /// The raw value of the enum case.
    public var name: String { rawValue }
}

extension String: StorageKey {
    /// The string itself.
    public var name: String { self }
}

extension StorageError {
    /// Checks that `key` can be stored, as every backend must before writing: not empty, and
    /// free of control characters (U+0000–U+001F, U+007F–U+009F). Every other name is valid,
    /// including dots, slashes, spaces, `@` and emoji.
    ///
    /// ```swift
    /// try StorageError.validate(key: "editor.fontSize")   // passes
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key name.
    ///   - location: The store's location, named in the error.
    /// - Throws: ``StorageError`` with code ``Code/invalidKey`` naming the key and, for a
    ///   control character, its code point.
    public static func validate(key: String, location: String? = nil) throws {
        try validateKeyName(key, path: location)
    }
}

/// Checks that a key name can be stored: not empty, and free of control characters
/// (U+0000–U+001F, U+007F–U+009F).
///
/// - Throws: ``StorageError`` with code ``StorageError/Code/invalidKey``.
package func validateKeyName(_ name: String, path: String? = nil) throws {
    if name.isEmpty {
        throw StorageError(.invalidKey, key: name, path: path, message: "the key is empty")
    }
    for scalar in name.unicodeScalars where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
        throw StorageError(
            .invalidKey, key: name, path: path,
            message: "the key contains the control character U+\(String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4))"
        )
    }
}

extension String {
    package func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
