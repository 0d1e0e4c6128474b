import Foundation

extension StoredValueJSON {
    /// Parses strict JSON bytes straight into a tree, or returns `nil` for anything it does not
    /// accept, so the caller can fall back to `JSONSerialization` (which then parses the
    /// unusual input, or reports the error with its own message).
    ///
    /// It yields exactly what the `JSONSerialization` path yields for the input it accepts:
    /// whole numbers that fit in `Int64` are `int`, larger ones up to `UInt64.max` their
    /// decimal `string`, other numbers `double`; a repeated object key keeps its last value.
    /// One deliberate difference: `-9223372036854775808` (`Int64.min`, as the writer writes
    /// it) is `int`, where `JSONSerialization` makes it a `double`.
    /// It refuses (returns `nil`): invalid UTF-8, lone surrogate escapes, control characters in
    /// strings, `null`, numbers that are not finite doubles, trailing commas, and nesting
    /// deeper than ``maximumDepth``. A UTF-8 byte order mark is skipped.
    ///
    /// Opening a settings file is dominated by this parse: going straight to ``StoredValue``
    /// skips building Foundation objects and the dynamic casts that convert them.
    ///
    /// - Complexity: O(n) in the byte count; recursion depth at most ``maximumDepth``.
    package static func parseStrict(_ data: Data) -> StoredValue? {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> StoredValue? in
            var parser = StrictParser(bytes: buffer.bindMemory(to: UInt8.self))
            if parser.bytes.count >= 3, parser.bytes[0] == 0xEF, parser.bytes[1] == 0xBB, parser.bytes[2] == 0xBF {
                parser.index = 3
            }
            guard let value = parser.value(depth: 0) else { return nil }
            parser.skipWhitespace()
            return parser.index == parser.bytes.count ? value : nil
        }
    }
}

/// A recursive-descent JSON parser over UTF-8 bytes that gives up (returns `nil`) on
/// anything unusual.
private struct StrictParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) -> StoredValue? {
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return object(depth: depth + 1)
        case UInt8(ascii: "["): return array(depth: depth + 1)
        case UInt8(ascii: "\""): return string().map(StoredValue.string)
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return nil
        }
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    mutating func object(depth: Int) -> StoredValue? {
        guard depth <= StoredValueJSON.maximumDepth else { return nil }
        index += 1  // {
        var result: [String: StoredValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .dictionary(result)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let key = string() else { return nil }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            guard let item = value(depth: depth) else { return nil }
            result[key] = item
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .dictionary(result)
            default: return nil
            }
        }
    }

    mutating func array(depth: Int) -> StoredValue? {
        guard depth <= StoredValueJSON.maximumDepth else { return nil }
        index += 1  // [
        var result: [StoredValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(result)
        }
        while true {
            guard let item = value(depth: depth) else { return nil }
            result.append(item)
            skipWhitespace()
            guard index < bytes.count else { return nil }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(result)
            default: return nil
            }
        }
    }

    /// A string starting at the opening quote; `nil` for invalid UTF-8, control characters,
    /// unknown escapes and lone surrogates.
    mutating func string() -> String? {
        index += 1  // "
        let start = index
        var ascii = true
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                return makeString(text, ascii: ascii)
            }
            if byte == UInt8(ascii: "\\") { return escapedString(from: start) }
            if byte < 0x20 { return nil }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        return nil
    }

    /// The rest of a string that holds escapes, decoded into a byte buffer first.
    mutating func escapedString(from start: Int) -> String? {
        var decoded = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return decoded.withUnsafeBufferPointer { makeString($0, ascii: false) }
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    guard let scalar = unicodeEscape() else { return nil }
                    decoded.append(contentsOf: String(Character(scalar)).utf8)
                default: return nil
                }
            default:
                if byte < 0x20 { return nil }
                decoded.append(byte)
                index += 1
            }
        }
        return nil
    }

    /// The scalar of `XXXX` after `\u` (with its low surrogate when it is a high one).
    mutating func unicodeEscape() -> Unicode.Scalar? {
        guard let first = hex4() else { return nil }
        switch first {
        case 0xD800...0xDBFF:
            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else { return nil }
            index += 2
            guard let second = hex4(), (0xDC00...0xDFFF).contains(second) else { return nil }
            return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))
        case 0xDC00...0xDFFF:
            return nil
        default:
            return Unicode.Scalar(first)
        }
    }

    mutating func hex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    /// `text` as a String when it is valid UTF-8 (decoding repairs nothing).
    func makeString(_ text: UnsafeBufferPointer<UInt8>, ascii: Bool) -> String? {
        let string = String(decoding: text, as: UTF8.self)
        if ascii { return string }
        return string.utf8.elementsEqual(text) ? string : nil
    }

    /// A number: `int` when whole and within `Int64`, the decimal `string` up to `UInt64.max`,
    /// else a finite `double`.
    mutating func number() -> StoredValue? {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard index < bytes.count else { return nil }
        // Integer part: 0, or a digit 1-9 followed by digits.
        var magnitude: UInt64 = 0
        var overflow = false
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { return nil }
        } else if isDigit(bytes[index]) {
            while index < bytes.count, isDigit(bytes[index]) {
                let digit = UInt64(bytes[index] - UInt8(ascii: "0"))
                let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times10.addingReportingOverflow(digit)
                if o1 || o2 { overflow = true } else { magnitude = sum }
                index += 1
            }
        } else {
            return nil
        }
        var isWhole = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isWhole = false
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { return nil }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isWhole = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { return nil }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if isWhole, !overflow {
            if negative {
                if magnitude <= UInt64(Int64.max) { return .int(-Int64(magnitude)) }
                if magnitude == UInt64(Int64.max) + 1 { return .int(.min) }
            } else {
                if let value = Int64(exactly: magnitude) { return .int(value) }
                return .string(String(magnitude))
            }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let double = Double(text), double.isFinite else { return nil }
        return .double(double)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
