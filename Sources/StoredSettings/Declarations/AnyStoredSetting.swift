import Foundation

/// A ``Stored`` setting with its `Value` type erased: what a ``SettingsGroup`` lists through
/// `Mirror` (its children are the wrappers, labelled `_name`).
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
    /// The default in stored form; `nil` for optional settings (and defaults that do not
    /// encode).
    var defaultStoredValue: StoredValue? { get }
    /// What values look like, for messages: `true or false`, `one of: plain, markdown`.
    var valueHint: String? { get }
    /// How help text names a value after the setting's option: `N`, `DATE`, `plain|markdown`,
    /// `TEXT...` for a list of texts.
    var valuePlaceholder: String { get }
    /// Every value as text when there are a few named ones (an enum's cases, `true` and
    /// `false`), for shell completion; `nil` otherwise.
    var valueNames: [String]? { get }
    /// The current value decoded and encoded again (so `"yes"` from the environment reads as
    /// `true`); `nil` when the key holds nothing (the default applies).
    ///
    /// - Throws: The decoding error, naming the key and the value's origin.
    func currentStoredValue() throws -> StoredValue?
    /// Why `value` does not read as the setting's type, or `nil` when it does: the error
    /// names the key and the expected type, and no place (the caller knows where the value
    /// came from).
    func decodingProblem(of value: StoredValue) -> StorageError?
    /// `text` read as the setting's type and encoded: what `config set` writes.
    ///
    /// - Throws: ``StorageError`` when the text does not read as the type.
    func storedValue(parsing text: String) throws -> StoredValue?
}

extension Stored: AnyStoredSetting {
    package var settingStore: any Storable { store }

    package var declaredTypeName: String {
        sugaredTypeName(
            ValueTypeInfo.isOptional(Value.self) ? setting.codec.typeName + "?" : setting.codec.typeName)
    }

    package var isBoolean: Bool {
        Value.self == Bool.self || Value.self == Bool?.self
    }

    package var defaultStoredValue: StoredValue? {
        try? setting.codec.encode(defaultValue)
    }

    package var valueHint: String? {
        ValueTypeInfo.hint(for: ValueTypeInfo.unwrapped(Value.self))
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
            return try setting.codec.encode(try setting.codec.decode(stored))
        } catch {
            throw explainingMismatch(storageError(error), of: stored)
        }
    }

    package func decodingProblem(of value: StoredValue) -> StorageError? {
        do {
            _ = try setting.codec.decode(value)
            return nil
        } catch {
            return explainingMismatch(StorageError(.typeMismatch, wrapping: error, key: key), of: value)
        }
    }

    /// `problem`, told as `config set` tells it: the value found, never a secret's, and when
    /// the problem is about the setting's own value (not a field inside it) the type as Swift
    /// spells it with what its values look like
    /// (`expected Mode (one of: fast, safe), found string "turbo"`).
    package func explainingMismatch(_ problem: StorageError, of whole: StoredValue) -> StorageError {
        guard problem.code == .typeMismatch else { return problem }
        var problem = problem
        var value = whole
        if problem.codingPath.isEmpty {
            let name = sugaredTypeName(setting.codec.typeName)
            // A list or dictionary is spelled differently in each layer; its name says enough.
            let hint = isList || isDictionary ? nil : valueHint
            problem.expectedType = hint.map { "\(name) (\($0))" } ?? name
        } else {
            // A field's own value, found by the path the decoder gives.
            for component in problem.codingPath {
                switch value {
                case .dictionary(let members) where members[component] != nil: value = members[component]!
                case .array(let items) where Int(component).map(items.indices.contains) == true:
                    value = items[Int(component)!]
                default: return problem
                }
            }
        }
        // Only a plain kind is told again with its text; "malformed list text" and the like stay.
        guard problem.foundKind == nil || problem.foundKind == value.kind else { return problem }
        switch value {
        case .array, .dictionary, .data: problem.foundKind = value.kind
        case _ where isSecret: problem.foundKind = value.kind
        case .string(let text): problem.foundKind = value.kind + " " + ValueText.quoted(text)
        default: problem.foundKind = value.kind + " " + ValueText.display(value)
        }
        return problem
    }

    package func storedValue(parsing text: String) throws -> StoredValue? {
        do {
            return try setting.codec.encode(try setting.codec.decode(.string(text)))
        } catch let firstError {
            // Structured values (a Codable struct, a list) are spelled as JSON text.
            let first = text.first { !$0.isWhitespace }
            guard first == "{" || first == "[" || first == "\"",
                let parsed = try? StoredValueJSON.parse(Data(text.utf8))
            else {
                throw storageError(firstError)
            }
            do {
                return try setting.codec.encode(try setting.codec.decode(parsed))
            } catch {
                throw storageError(error)
            }
        }
    }
}
