import Foundation
package import StoredSettings

/// A `Stored` setting with its `Value` type erased: what a settings group lists through `Mirror`.
package protocol AnyStoredSetting: Sendable {
    /// The key the value is stored under.
    var key: String { get }
    /// The declaration's help sentence.
    var help: String? { get }
    /// Whether the value is hidden in listings and messages.
    var isSecret: Bool { get }
    /// The store the setting reads and writes.
    var settingStore: any Storable { get }
    /// The Swift type as declared: `Bool`, `Date?`, `Theme`.
    var declaredTypeName: String { get }
    /// Whether the value is a `Bool` (or `Bool?`), which command-line flags set without text.
    var isBoolean: Bool { get }
    /// Whether the value is an array or a set (or an optional one).
    var isList: Bool { get }
    /// Whether the value is a dictionary with open keys (`[String: V]`, or an optional one).
    var isDictionary: Bool { get }
    /// The default in stored form; `nil` for optional settings (and defaults that do not encode).
    var defaultStoredValue: StoredValue? { get }
    /// What values look like, for messages: `true or false`, `one of: plain, markdown`.
    var valueHint: String? { get }
    /// How help text names a value after the setting's option: `N`, `DATE`, `plain|markdown`.
    var valuePlaceholder: String { get }
    /// Every value as text when there are a few named ones, for shell completion; else `nil`.
    var valueNames: [String]? { get }
    /// The current value decoded and encoded again (`"yes"` reads as `true`); `nil` when the key
    /// holds nothing. Throws the decoding error, naming the key and the value's origin.
    func currentStoredValue() throws -> StoredValue?
    /// Why `value` does not read as the setting's type (naming the key, not the place), or `nil`.
    func decodingProblem(of value: StoredValue) -> StorageError?
    /// `text` read as the setting's type and encoded: what `config set` writes. Throws when the
    /// text does not read as the type.
    func storedValue(parsing text: String) throws -> StoredValue?
}

extension Stored: AnyStoredSetting {
    package var settingStore: any Storable { store }

    package var declaredTypeName: String {
        sugaredTypeName(Value.self is any OptionalValue.Type ? valueTypeName + "?" : valueTypeName)
    }

    package var isBoolean: Bool {
        Value.self == Bool.self || Value.self == Bool?.self
    }

    package var defaultStoredValue: StoredValue? {
        try? encodedValue(defaultValue)
    }

    package var valuePlaceholder: String {
        ValueTypeInfo.placeholder(for: ValueTypeInfo.unwrapped(Value.self))
    }

    package var valueNames: [String]? {
        ValueTypeInfo.valueNames(for: ValueTypeInfo.unwrapped(Value.self))
    }

    package func currentStoredValue() throws -> StoredValue? {
        guard let stored = store.value(forKey: key) else { return nil }
        do {
            return try encodedValue(try decodedValue(stored))
        } catch {
            throw explainingMismatch(storageError(error), of: stored)
        }
    }

    package func decodingProblem(of value: StoredValue) -> StorageError? {
        do {
            _ = try decodedValue(value)
            return nil
        } catch {
            return explainingMismatch(StorageError(.typeMismatch, wrapping: error, key: key), of: value)
        }
    }

    package func storedValue(parsing text: String) throws -> StoredValue? {
        do {
            return try encodedValue(try decodedValue(.string(text)))
        } catch let firstError {
            // Structured values (a Codable struct, a list) are spelled as JSON text.
            let first = text.first { !$0.isWhitespace }
            guard first == "{" || first == "[" || first == "\"",
                let parsed = try? StoredValueJSON.parse(Data(text.utf8))
            else {
                throw storageError(firstError)
            }
            do {
                return try encodedValue(try decodedValue(parsed))
            } catch {
                throw storageError(error)
            }
        }
    }
}
