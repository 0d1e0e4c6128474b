import Foundation
package import StoredSettings

/// The TYPE flags of `stored write`, and how each reads its VALUE text.
///
/// | Flag | Stored as | Accepted text |
/// | --- | --- | --- |
/// | `-bool` | `bool` | `true`, `false`, `yes`, `no`, `on`, `off`, `1`, `0` (any case) |
/// | `-int` | `int` | a whole number in `Int64`; up to `UInt64.max` as decimal text, as `UInt64` settings keep it |
/// | `-float` | `double` | a decimal number such as `0.5` or `1e-3` (not hexadecimal, not beyond `Double`'s range) |
/// | `-string` | `string` | any text (the default without a flag) |
/// | `-date` | `date` | ISO 8601 with a time, such as `2026-03-01T09:30:00Z` or `…09:30:00.25+01:00` |
/// | `-data` | `data` | hex digits (`0x` prefix optional, as `defaults -data`), or `base64:` then Base64 |
/// | `-json` | the JSON's shape | any JSON value except `null`; `-` reads it from standard input |
package enum ValueType: String, CaseIterable, Sendable {
    case bool, int, float, string, date, data, json

    /// The flag as typed: `-bool`.
    package var flag: String { "-" + rawValue }

    /// The type for a flag such as `-int`; `nil` for anything else.
    package init?(flag: String) {
        guard flag.hasPrefix("-"), let type = ValueType(rawValue: String(flag.dropFirst())) else { return nil }
        self = type
    }

    /// The Swift type named in error messages.
    package var expectedType: String {
        switch self {
        case .bool: "Bool"
        case .int: "Int"
        case .float: "Double"
        case .string: "String"
        case .date: "Date"
        case .data: "Data"
        case .json: "JSON"
        }
    }

    /// Reads `text` as a value of this type.
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` (expected type, found `string`, and why)
    ///   when the text does not fit; for `-json`, ``StorageError/Code/dataCorrupted`` or
    ///   ``StorageError/Code/nestingTooDeep`` from the JSON parser. The error has no key or
    ///   path; the caller adds them.
    package func storedValue(from text: String) throws -> StoredValue {
        switch self {
        case .string:
            return .string(text)
        case .bool:
            guard let flag = Bool(lenientText: text) else {
                throw mismatch(text, "not true, false, yes, no, on, off, 1 or 0")
            }
            return .bool(flag)
        case .int:
            if let number = Int64(text) { return .int(number) }
            if let number = UInt64(text) { return .string(String(number)) }
            let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
            if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
                throw mismatch(text, "outside \(Int64.min)...\(UInt64.max)")
            }
            throw mismatch(text, "not a whole number")
        case .float:
            // The library's reading of number text: decimal only (`0x10` is refused) and never
            // beyond Double's range (`1e400` is not infinity).
            guard let number = try? Double(storedValue: .string(text)) else {
                let beyond = isPlainDecimalText(text.trimmingWhitespace)
                throw mismatch(text, beyond ? "beyond the range of Double" : "not a number")
            }
            return .double(number)
        case .date:
            guard let date = DateText.date(from: text) else {
                throw mismatch(text, "not an ISO 8601 date and time such as 2026-03-01T09:30:00Z")
            }
            return .date(date)
        case .data:
            if text.hasPrefix("base64:") {
                guard let data = Data(base64Encoded: String(text.dropFirst("base64:".count))) else {
                    throw mismatch(text, "not valid Base64 after 'base64:'")
                }
                return .data(data)
            }
            guard let data = Self.hexData(text) else {
                throw mismatch(text, "not an even number of hex digits (write base64:… for Base64)")
            }
            return .data(data)
        case .json:
            do {
                return try StoredValueJSON.parse(Data(text.utf8))
            } catch let error as StorageError {
                var error = error
                error.expectedType = "JSON"
                throw error
            }
        }
    }

    private func mismatch(_ text: String, _ reason: String) -> StorageError {
        StorageError(
            .typeMismatch, expectedType: expectedType, foundKind: "string", message: "\(Self.quoted(text)) is \(reason)"
        )
    }

    /// `text` in double quotes, shortened to 40 characters.
    static func quoted(_ text: String) -> String {
        let short = text.count > 40 ? text.prefix(40) + "…" : Substring(text)
        return "\"\(short)\""
    }

    /// The bytes of hex text such as `48656c6c6f` or `0x48656C6C6F`; `nil` when it is not an
    /// even number of hex digits.
    static func hexData(_ text: String) -> Data? {
        var digits = Substring(text)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        let utf8 = Array(digits.utf8)
        guard utf8.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = hexValue(utf8[index]), let low = hexValue(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return Data(bytes)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
