import Foundation
import StoredSettings

extension ValueTypeInfo {
    /// How help text names a value of `type` after its option: `N` for numbers, `DATE`,
    /// `TEXT`, `true|false`, the cases of an enum (`plain|markdown`), `JSON` for structures, else `VALUE`.
    static func placeholder(for type: Any.Type) -> String {
        if let names = valueNames(for: type) { return names.joined(separator: "|") }
        if type is any FixedWidthInteger.Type || type is any BinaryFloatingPoint.Type || type == Decimal.self {
            return "N"
        }
        if type == Date.self { return "DATE" }
        if type == URL.self { return "URL" }
        if type == UUID.self { return "UUID" }
        if type == String.self { return "TEXT" }
        if type == Data.self { return "BASE64" }
        if let list = type as? any ListValue.Type { return placeholder(for: list.elementType) + "..." }
        if type is any DictionaryValue.Type || type is any Decodable.Type { return "JSON" }
        return "VALUE"
    }

    /// Every value of `type` as text, when it has a few named ones: `true` and `false`, or an
    /// enum's cases as they are stored; `nil` otherwise.
    static func valueNames(for type: Any.Type) -> [String]? {
        if type == Bool.self { return ["true", "false"] }
        guard let cases = type as? any CaseIterable.Type, let names = caseNames(cases), !names.isEmpty else {
            return nil
        }
        return names
    }

    /// "a Bool", "an Int": the type's name with its article.
    static func withArticle(_ name: String) -> String {
        let vowels: Set<Character> = ["A", "E", "I", "O", "a", "e", "i", "o"]
        return (name.first.map(vowels.contains) ?? false ? "an " : "a ") + name
    }
}

extension ValueText {
    /// The text shown for a secret.
    static let redacted = "<redacted>"
}
