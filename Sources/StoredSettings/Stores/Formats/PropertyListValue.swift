import Foundation

/// Converts ``StoredValue`` trees to and from property-list objects, as `UserDefaults` and
/// `PropertyListSerialization` take them. Dates stay `Date`s where property lists hold them exactly
/// (Apple platforms); on Linux, whose `UserDefaults` drops fractional seconds, ISO 8601 text.
package enum PropertyListValue {
    /// Whether native `Date` objects survive this platform's `UserDefaults` exactly.
    #if canImport(Darwin)
    private static let keepsDatesExactly = true
    #else
    private static let keepsDatesExactly = false
    #endif

    /// The property-list object for `value`. `nativeDates` keeps `Date`s (files) instead of
    /// following ``keepsDatesExactly``; `allowingEveryCharacter` accepts what XML 1.0 cannot carry
    /// (binary lists; never UserDefaults, whose Linux XML files one raw U+0001 makes unreadable).
    /// Throws `encodingFailed` for such a character otherwise, and for dates with no ISO 8601 form.
    package static func object(
        from value: StoredValue, nativeDates: Bool = keepsDatesExactly, allowingEveryCharacter: Bool = false
    ) throws -> Any {
        switch value {
        case .bool(let flag): return flag
        case .int(let number): return NSNumber(value: number)
        case .double(let number): return NSNumber(value: number)
        case .string(let text):
            if !allowingEveryCharacter { try checkXMLCharacters(text, inKey: false) }
            return text
        case .data(let data): return data
        case .date(let date):
            if nativeDates { return date }
            guard let text = DateText.string(from: date) else {
                throw StorageError(.encodingFailed, expectedType: "Date", message: "the date has no ISO 8601 form")
            }
            return text
        case .array(let items):
            return try items.enumerated().map { index, item -> Any in
                try StorageError.prefixingCodingPath(String(index)) { () -> Any in
                    try object(from: item, nativeDates: nativeDates, allowingEveryCharacter: allowingEveryCharacter)
                }
            }
        case .dictionary(let items):
            var result: [String: Any] = [:]
            result.reserveCapacity(items.count)
            for (key, item) in items {
                result[key] = try StorageError.prefixingCodingPath(key) { () -> Any in
                    if !allowingEveryCharacter { try checkXMLCharacters(key, inKey: true) }
                    return try object(
                        from: item, nativeDates: nativeDates, allowingEveryCharacter: allowingEveryCharacter)
                }
            }
            return result
        }
    }

    /// The first character of `text` an XML property list cannot carry, or `nil`: C0 controls but
    /// tab, LF and CR, U+FFFE and U+FFFF, and a leading U+FEFF, which Foundation's parser drops.
    static func xmlUnsupportedScalar(in text: String) -> Unicode.Scalar? {
        // Fast path: a C0 control is a byte below 0x20; U+FFFE, U+FFFF and U+FEFF start with 0xEF.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0xEF }) else { return nil }
        if text.unicodeScalars.first == "\u{FEFF}" { return "\u{FEFF}" }
        return text.unicodeScalars.first { scalar in
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: false
            case 0..<0x20, 0xFFFE, 0xFFFF: true
            default: false
            }
        }
    }

    /// Throws ``StorageError/Code/encodingFailed`` when `text` (a dictionary key when `inKey`)
    /// holds a character XML cannot carry, naming its code point, never the text (maybe a secret).
    static func checkXMLCharacters(_ text: String, inKey: Bool, hint: String = "") throws {
        guard let scalar = xmlUnsupportedScalar(in: text) else { return }
        let codePoint = "U+" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        let place = inKey ? " in a dictionary key" : ""
        let what =
            scalar == "\u{FEFF}"
            ? "an XML property list cannot hold the character \(codePoint) at the start of a string\(place) (Foundation's parser drops it)"
            : "an XML property list cannot hold the character \(codePoint)\(place)"
        throw StorageError(.encodingFailed, expectedType: inKey ? nil : "String", message: what + hint)
    }

    /// The tree for a property-list object; `nil` for objects that are not property-list
    /// values.
    package static func storedValue(from object: Any) -> StoredValue? {
        // Linux `UserDefaults` hands back Swift `Bool`, `Int` and `Double`: matched by type,
        // without bridging to `NSNumber`.
        switch ObjectIdentifier(type(of: object)) {
        case ObjectIdentifier(Bool.self): if let flag = object as? Bool { return .bool(flag) }
        case ObjectIdentifier(Int.self): if let number = object as? Int { return .int(Int64(number)) }
        case ObjectIdentifier(Double.self): if let number = object as? Double { return .double(number) }
        default: break
        }
        if let number = object as? NSNumber { return storedValue(from: number) as StoredValue }
        switch object {
        case let text as String: return .string(text)
        // `as StoredValue` picks the NSNumber overload; without it this one recurses forever.
        case let number as NSNumber: return storedValue(from: number) as StoredValue
        case let data as Data: return .data(data)
        case let date as Date: return .date(date)
        case let items as [Any]:
            var result: [StoredValue] = []
            result.reserveCapacity(items.count)
            for item in items {
                guard let value = storedValue(from: item) else { return nil }
                result.append(value)
            }
            return .array(result)
        case let items as [String: Any]:
            var result: [String: StoredValue] = [:]
            result.reserveCapacity(items.count)
            for (key, item) in items {
                guard let value = storedValue(from: item) else { return nil }
                result[key] = value
            }
            return .dictionary(result)
        default:
            return nil
        }
    }

    /// The class of Foundation's Boolean numbers (`__NSCFBoolean`), which no integer has.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    /// The tree for a number, by its Objective-C type code. A Boolean is told by its class
    /// (`CFBoolean`, on Linux Foundation's Boolean class), never by code `c`, which `Int8` has too.
    static func storedValue(from number: NSNumber) -> StoredValue {
        #if canImport(Darwin)
        if CFGetTypeID(number) == CFBooleanGetTypeID() { return .bool(number.boolValue) }
        #endif
        let code = number.objCType.pointee
        if code == CChar(UInt8(ascii: "B")) || ObjectIdentifier(type(of: number)) == booleanClass {
            return .bool(number.boolValue)
        }
        switch code {
        case CChar(UInt8(ascii: "d")), CChar(UInt8(ascii: "f")):
            return .double(number.doubleValue)
        case CChar(UInt8(ascii: "Q")), CChar(UInt8(ascii: "L")):
            let unsigned = number.uint64Value
            if let signed = Int64(exactly: unsigned) { return .int(signed) }
            return .string(String(unsigned))
        default:
            return .int(number.int64Value)
        }
    }
}
