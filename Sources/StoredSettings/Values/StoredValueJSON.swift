import Foundation

/// Converts ``StoredValue`` trees to and from JSON text.
///
/// Writing: objects with keys sorted by their UTF-8 bytes, two-space indentation, a trailing
/// newline, integers as integers, doubles in their shortest round-trip form (always with a `.`
/// or exponent so they read back as doubles), dates as exact ISO 8601 text (``DateText``),
/// data as Base64 text. NaN and infinities have no JSON form: they throw
/// ``StorageError/Code/encodingFailed``.
///
/// Reading: `JSONSerialization` parses; numbers become `int` when they are whole and fit in
/// `Int64`, else `double` (integers above `Int64.max` become their decimal `string`, as
/// `UInt64` writes them); strings stay strings (the value layer reads dates and data from
/// text). Nesting deeper than ``maximumDepth`` is refused before parsing.
package enum StoredValueJSON {
    /// The deepest nesting accepted, counting the root container as 1.
    package static let maximumDepth = 64

    // MARK: Writing

    /// The JSON bytes of `value`.
    ///
    /// - Parameter pretty: Indent with two spaces and end with a newline (for files people
    ///   read); otherwise one line with no spaces.
    /// - Throws: ``StorageError/Code/encodingFailed`` for NaN or infinite doubles, and for
    ///   dates outside the years ISO 8601 text can hold.
    package static func data(from value: StoredValue, pretty: Bool = true) throws -> Data {
        var writer = Writer(pretty: pretty)
        try writer.write(value, indent: 0)
        if pretty { writer.bytes.append(UInt8(ascii: "\n")) }
        return Data(writer.bytes)
    }

    /// The JSON text of `value`, as ``data(from:pretty:)``.
    package static func string(from value: StoredValue, pretty: Bool = true) throws -> String {
        String(decoding: try data(from: value, pretty: pretty), as: UTF8.self)
    }

    private struct Writer {
        var bytes: [UInt8] = []
        let pretty: Bool

        init(pretty: Bool) {
            self.pretty = pretty
            bytes.reserveCapacity(1024)
        }

        mutating func write(_ value: StoredValue, indent: Int) throws {
            switch value {
            case .bool(let flag): append(flag ? "true" : "false")
            case .int(let number): append(String(number))
            case .double(let number):
                guard number.isFinite else {
                    throw StorageError(.encodingFailed, expectedType: "Double", message: "JSON has no form for NaN or infinity")
                }
                var text = number.description
                if !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { text += ".0" }
                append(text)
            case .string(let text): writeString(text)
            case .data(let data): writeString(data.base64EncodedString())
            case .date(let date):
                guard let text = DateText.string(from: date) else {
                    throw StorageError(.encodingFailed, expectedType: "Date", message: "the date has no ISO 8601 form")
                }
                writeString(text)
            case .array(let items):
                if items.isEmpty { append("[]"); return }
                bytes.append(UInt8(ascii: "["))
                for (index, item) in items.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    newline(indent + 1)
                    try StorageError.prefixingCodingPath(String(index)) { try write(item, indent: indent + 1) }
                }
                newline(indent)
                bytes.append(UInt8(ascii: "]"))
            case .dictionary(let items):
                if items.isEmpty { append("{}"); return }
                bytes.append(UInt8(ascii: "{"))
                for (index, key) in items.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    newline(indent + 1)
                    writeString(key)
                    append(pretty ? ": " : ":")
                    try StorageError.prefixingCodingPath(key) { try write(items[key]!, indent: indent + 1) }
                }
                newline(indent)
                bytes.append(UInt8(ascii: "}"))
            }
        }

        mutating func newline(_ indent: Int) {
            guard pretty else { return }
            bytes.append(UInt8(ascii: "\n"))
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
        }

        mutating func append(_ text: String) {
            bytes.append(contentsOf: text.utf8)
        }

        mutating func writeString(_ text: String) {
            bytes.append(UInt8(ascii: "\""))
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                case 0x00..<0x20, 0x7F:
                    append("\\u")
                    append(String(byte, radix: 16).leftPadded(to: 4))
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    // MARK: Reading

    /// Parses JSON bytes into a tree.
    ///
    /// - Throws: ``StorageError/Code/nestingTooDeep`` beyond ``maximumDepth`` (checked before
    ///   parsing, so no depth can crash the process), ``StorageError/Code/dataCorrupted`` with
    ///   the parser's message for text that is not JSON.
    package static func parse(_ data: Data) throws -> StoredValue {
        try checkDepth(data)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw StorageError(.dataCorrupted, message: parserMessage(error))
        }
        return try storedValue(fromJSONObject: object)
    }

    /// Throws ``StorageError/Code/nestingTooDeep`` when arrays and objects nest deeper than
    /// ``maximumDepth``, counting brackets outside strings in one pass.
    package static func checkDepth(_ data: Data) throws {
        var depth = 0
        var inString = false
        var escaped = false
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            for byte in buffer {
                if inString {
                    if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    depth += 1
                    if depth > maximumDepth {
                        throw StorageError(.nestingTooDeep, message: "nesting deeper than \(maximumDepth) levels")
                    }
                case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
                default: break
                }
            }
        }
    }

    private static func parserMessage(_ error: Error) -> String {
        let nsError = error as NSError
        if let detail = nsError.userInfo[NSDebugDescriptionErrorKey] as? String { return detail }
        return "the file is not valid JSON"
    }

    /// Converts a `JSONSerialization` object into a tree.
    package static func storedValue(fromJSONObject object: Any) throws -> StoredValue {
        switch object {
        case let text as String: return .string(text)
        case let number as NSNumber: return PropertyListValue.storedValue(from: number)
        case let items as [Any]: return .array(try items.map(storedValue(fromJSONObject:)))
        case let items as [String: Any]:
            var result: [String: StoredValue] = [:]
            result.reserveCapacity(items.count)
            for (key, item) in items { result[key] = try storedValue(fromJSONObject: item) }
            return .dictionary(result)
        case is NSNull:
            throw StorageError(.dataCorrupted, message: "null is not a stored value")
        default:
            throw StorageError(.dataCorrupted, message: "unexpected JSON value")
        }
    }
}
