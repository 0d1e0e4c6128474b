import Foundation

/// What messages say about a setting's Swift type.
package enum ValueTypeInfo {
    /// The wrapped type of an `Optional`, else `type` itself.
    package static func unwrapped(_ type: Any.Type) -> Any.Type {
        (type as? any OptionalValue.Type)?.wrappedType ?? type
    }

    /// What values of `type` look like, in words, or `nil` when there is nothing useful to say.
    static func hint(for type: Any.Type) -> String? {
        if type == Bool.self { return "true or false; also yes/no, on/off, 1/0" }
        if let integer = type as? any FixedWidthInteger.Type { return wholeNumberHint(integer) }
        if type is any BinaryFloatingPoint.Type || type == Decimal.self { return "a number" }
        if type == Date.self { return "an ISO 8601 date such as 2025-01-31T09:30:00Z" }
        if type == URL.self { return "a URL" }
        if type == UUID.self { return "a UUID such as E621E1F8-C36C-495A-93FC-0C247A3E6E5F" }
        if type == String.self { return nil }
        if type == Data.self { return "Base64 text" }
        if let cases = type as? any CaseIterable.Type, let names = caseNames(cases), !names.isEmpty {
            return "one of: " + names.joined(separator: ", ")
        }
        let name = typeName(type)
        if name.hasPrefix("Array<") || name.hasPrefix("Set<") { return "a JSON array" }
        if name.hasPrefix("Dictionary<") || type is any Decodable.Type { return "a JSON object" }
        return nil
    }

    /// `a whole number`, with the range of a type narrower than 64 bits (`from 0 to 255`) or
    /// of an unsigned one (`0 or more`).
    private static func wholeNumberHint<T: FixedWidthInteger>(_: T.Type) -> String {
        if T.bitWidth < 64 { return "a whole number from \(T.min) to \(T.max)" }
        return T.isSigned ? "a whole number" : "a whole number, 0 or more"
    }

    /// An enum's cases as they are stored; `nil` when one does not convert.
    package static func caseNames<T: CaseIterable>(_: T.Type) -> [String]? {
        var names: [String] = []
        for value in T.allCases {
            guard let convertible = value as? any StoredValueConvertible,
                let stored = try? convertible.storedValue()
            else { return nil }
            names.append(ValueText.display(stored))
        }
        return names
    }
}

/// `Optional`, so its wrapped type can be found at run time.
package protocol OptionalValue {
    static var wrappedType: Any.Type { get }
}

extension Optional: OptionalValue {
    package static var wrappedType: Any.Type { Wrapped.self }
}

/// Arrays and sets: the list types, which lists from the environment and the command line fill.
package protocol ListValue {
    /// The type of the items.
    static var elementType: Any.Type { get }
}
extension Array: ListValue {
    package static var elementType: Any.Type { Element.self }
}
extension Set: ListValue {
    package static var elementType: Any.Type { Element.self }
}

/// Dictionaries with open keys (`[String: V]`), which have no fixed fields.
package protocol DictionaryValue {}
extension Dictionary: DictionaryValue {}

/// Stored values as text for people.
package enum ValueText {
    /// `true`, `42`, `1.5`, the string itself, ISO 8601 for dates, Base64 for data, compact JSON
    /// for arrays and dictionaries.
    package static func display(_ value: StoredValue) -> String {
        switch value {
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text): return text
        case .date(let date): return DateText.string(from: date) ?? String(describing: date)
        case .data(let data): return data.base64EncodedString()
        case .array, .dictionary:
            return (try? StoredValueJSON.string(from: value, pretty: false)) ?? value.description
        }
    }

    /// Text quoted for a message, with control characters escaped: `"maybe"`.
    package static func quoted(_ text: String) -> String {
        text.debugDescription
    }
}
