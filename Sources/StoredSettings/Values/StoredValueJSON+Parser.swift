import Foundation

extension StoredValueJSON {
    /// A single-pass JSON parser from UTF-8 bytes straight into ``StoredValue`` trees.
    ///
    /// Recursion is bounded by ``StoredValueJSON/maximumDepth``: a container deeper than that
    /// throws before the parser descends into it.
    struct Parser {
        private let bytes: UnsafeRawBufferPointer
        private var index = 0
        private var depth = 0
        /// Where each member value of the root object starts and ends, with the value read
        /// there, when asked for.
        private let recordsSource: Bool
        private(set) var sourceMembers: [String: SourceText.Member] = [:]
        /// Keys given twice in one object, when the source is recorded; the first few only.
        private(set) var duplicateKeys: [DuplicateKey] = []
        /// The keys from the root to the value being parsed, when the source is recorded.
        private var path: [String] = []

        init(bytes: UnsafeRawBufferPointer, recordingSource: Bool = false) {
            self.bytes = bytes
            self.recordsSource = recordingSource
        }

        /// The whole document: one value with only whitespace around it.
        mutating func parseDocument() throws -> StoredValue {
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
            let value = try parseValue()
            skipWhitespace()
            guard index == bytes.count else { throw corrupted("unexpected text after the end of the JSON value") }
            return value
        }

        private mutating func parseValue() throws -> StoredValue {
            skipWhitespace()
            guard index < bytes.count else { throw corrupted("unexpected end of the file") }
            switch bytes[index] {
            case UInt8(ascii: "{"): return try parseObject()
            case UInt8(ascii: "["): return try parseArray()
            case UInt8(ascii: "\""): return .string(try parseString())
            case UInt8(ascii: "t"):
                try expectWord("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try expectWord("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try expectWord("null")
                throw corrupted("null is not a stored value", at: index - 4)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
            default: throw corrupted("unexpected character")
            }
        }

        private mutating func enterContainer() throws {
            depth += 1
            if depth > StoredValueJSON.maximumDepth {
                throw StorageError(
                    .nestingTooDeep,
                    message: "nesting deeper than \(StoredValueJSON.maximumDepth) levels at \(position(of: index))")
            }
            index += 1
        }

        private mutating func parseObject() throws -> StoredValue {
            try enterContainer()
            var result: [String: StoredValue] = [:]
            if depth == 1 {
                // The root holds most of a file's members: room for them at once, no rehashing.
                let capacity = memberCount()
                result.reserveCapacity(capacity)
                if recordsSource { sourceMembers.reserveCapacity(capacity) }
            }
            // Where each key starts, in order: read only to report a key given twice.
            var keyStarts: [(key: String, start: Int)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                depth -= 1
                return .dictionary(result)
            }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                    throw corrupted("expected a key in quotes")
                }
                let keyStart = index
                let key = try parseString()
                // One look-up finds both a key given again and a canonically equivalent one.
                if let index = result.index(forKey: key) {
                    let existing = result.keys[index]
                    guard existing.hasSameScalars(as: key) else {
                        throw corrupted(canonicallyEquivalentKeysMessage(existing, key), at: keyStart)
                    }
                    if recordsSource { noteDuplicate(key, at: keyStart, in: keyStarts) }
                }
                if recordsSource { keyStarts.append((key, keyStart)) }
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                    throw corrupted("expected ':' after the key")
                }
                index += 1
                do {
                    skipWhitespace()
                    let valueStart = index
                    if recordsSource { path.append(key) }
                    let value = try parseValue()
                    if recordsSource { path.removeLast() }
                    result[key] = value
                    if recordsSource, depth == 1 { sourceMembers[key] = (valueStart..<index, value) }
                } catch var error as StorageError {
                    error.codingPath.insert(key, at: 0)
                    throw error
                }
                skipWhitespace()
                guard index < bytes.count else { throw corrupted("unexpected end of the file in an object") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "}") {
                    index += 1
                    break
                }
                throw corrupted("expected ',' or '}' in an object")
            }
            depth -= 1
            return .dictionary(result)
        }

        /// How many members the object being read has (its colons outside strings and nested
        /// containers, counted up to its end), at most 65,536: room reserved for a malformed
        /// file, which the parse then refuses, stays small.
        private func memberCount() -> Int {
            var count = 0
            var depth = 1
            var inString = false
            var escaped = false
            for byte in bytes[index...] {
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == UInt8(ascii: "\\") {
                        escaped = true
                    } else if byte == UInt8(ascii: "\"") {
                        inString = false
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: "\""): inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return count }
                case UInt8(ascii: ":") where depth == 1:
                    count += 1
                    if count == 1 << 16 { return count }
                default: break
                }
            }
            return count
        }

        /// Records that `key`, starting at `start`, was given before in its object, whose keys
        /// so far start at `starts`.
        private mutating func noteDuplicate(_ key: String, at start: Int, in starts: [(key: String, start: Int)]) {
            guard duplicateKeys.count < DuplicateKey.maximumReported,
                let first = starts.first(where: { $0.key.hasSameScalars(as: key) })
            else { return }
            duplicateKeys.append(
                DuplicateKey(path: path + [key], firstOffset: first.start, laterOffset: start, in: bytes))
        }

        private mutating func parseArray() throws -> StoredValue {
            try enterContainer()
            var result: [StoredValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                depth -= 1
                return .array(result)
            }
            while true {
                do {
                    result.append(try parseValue())
                } catch var error as StorageError {
                    error.codingPath.insert(String(result.count), at: 0)
                    throw error
                }
                skipWhitespace()
                guard index < bytes.count else { throw corrupted("unexpected end of the file in an array") }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                if bytes[index] == UInt8(ascii: "]") {
                    index += 1
                    break
                }
                throw corrupted("expected ',' or ']' in an array")
            }
            depth -= 1
            return .array(result)
        }

        private mutating func parseString() throws -> String {
            let quote = index
            index += 1
            let start = index
            var ascii = true
            // Fast path: no escapes, the bytes are the string.
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    let slice = UnsafeRawBufferPointer(rebasing: bytes[start..<index])
                    index += 1
                    if !ascii, !slice.isValidUTF8 { throw corrupted("the text is not valid UTF-8", at: quote) }
                    return String(decoding: slice, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\") { break }
                if byte < 0x20 { throw corrupted("a control character must be escaped in a string") }
                if byte >= 0x80 { ascii = false }
                index += 1
            }
            guard index < bytes.count else { throw corrupted("unterminated string", at: quote) }
            // Slow path: copy while decoding escapes.
            var buffer = [UInt8](bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    if !ascii, !buffer.withUnsafeBytes(\.isValidUTF8) {
                        throw corrupted("the text is not valid UTF-8", at: quote)
                    }
                    return String(decoding: buffer, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    index += 1
                    guard index < bytes.count else { break }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                    case UInt8(ascii: "b"): buffer.append(0x08)
                    case UInt8(ascii: "f"): buffer.append(0x0C)
                    case UInt8(ascii: "n"): buffer.append(0x0A)
                    case UInt8(ascii: "r"): buffer.append(0x0D)
                    case UInt8(ascii: "t"): buffer.append(0x09)
                    case UInt8(ascii: "u"):
                        let scalar = try parseUnicodeEscape()
                        buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
                    default:
                        throw corrupted("invalid escape in a string", at: index - 2)
                    }
                case 0..<0x20:
                    throw corrupted("a control character must be escaped in a string")
                default:
                    if byte >= 0x80 { ascii = false }
                    buffer.append(byte)
                    index += 1
                }
            }
            throw corrupted("unterminated string", at: quote)
        }

        /// After `\u`: four hex digits, and a second `\uXXXX` for a surrogate pair.
        private mutating func parseUnicodeEscape() throws -> Unicode.Scalar {
            let escapeStart = index - 2
            let high = try parseHex4()
            if (0xD800..<0xDC00).contains(high) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else {
                    throw corrupted("a lone UTF-16 surrogate in a \\u escape", at: escapeStart)
                }
                index += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else {
                    throw corrupted("a lone UTF-16 surrogate in a \\u escape", at: escapeStart)
                }
                let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                guard let scalar = Unicode.Scalar(value) else { throw corrupted("invalid \\u escape", at: escapeStart) }
                return scalar
            }
            guard let scalar = Unicode.Scalar(high) else {
                throw corrupted("a lone UTF-16 surrogate in a \\u escape", at: escapeStart)
            }
            return scalar
        }

        private mutating func parseHex4() throws -> UInt32 {
            guard index + 4 <= bytes.count else { throw corrupted("unterminated \\u escape") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: throw corrupted("invalid hex digit in a \\u escape")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// Integers that fit `Int64` are `int`; larger positive ones up to `UInt64.max` are their
        /// decimal `string` (as `UInt64` stores them); everything else is a `double`.
        private mutating func parseNumber() throws -> StoredValue {
            let start = index
            var negative = false
            if bytes[index] == UInt8(ascii: "-") {
                negative = true
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else { throw corrupted("invalid number", at: start) }
            var magnitude: UInt64 = 0
            var overflow = false
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                while index < bytes.count, isDigit(bytes[index]) {
                    let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
                    let (sum, o2) = times10.addingReportingOverflow(UInt64(bytes[index] - UInt8(ascii: "0")))
                    magnitude = sum
                    overflow = overflow || o1 || o2
                    index += 1
                }
            }
            var isInteger = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isInteger = false
                index += 1
                guard index < bytes.count, isDigit(bytes[index]) else { throw corrupted("invalid number", at: start) }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isInteger = false
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard index < bytes.count, isDigit(bytes[index]) else { throw corrupted("invalid number", at: start) }
                while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            }
            if isInteger, !overflow {
                if negative {
                    if magnitude <= UInt64(Int64.max) { return .int(-Int64(magnitude)) }
                    if magnitude == UInt64(Int64.max) + 1 { return .int(.min) }
                } else {
                    if magnitude <= UInt64(Int64.max) { return .int(Int64(magnitude)) }
                    return .string(String(magnitude))
                }
            }
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            guard let number = Double(text), number.isFinite else {
                throw corrupted("the number \(text.prefix(40)) is out of the range of Double", at: start)
            }
            // A whole `Double` in the 64-bit range that is not the number the text writes
            // (`-9223372036854775809` rounds to `Int64.min`) stays text, for the value layer to
            // judge by its digits; the `Double`'s own digits (`1.2173636321265912e+18`) are a number.
            if number.rounded(.towardZero) == number, number.magnitude < 0x1p64,
                !Self.isExactly(number, text, isInteger: isInteger)
            {
                return .string(text)
            }
            return .double(number)
        }

        /// Whether the whole `number` (below 2^64) is exactly the value of `text`, or `text` is a
        /// fraction or exponent in `number`'s own n ≤ 17 significant digits, rounded, as the
        /// shortest form and `%.17g` write it.
        private static func isExactly(_ number: Double, _ text: String, isInteger: Bool) -> Bool {
            guard let decimal = ExactDecimal(text) else { return false }
            if !isInteger, (1...17).contains(decimal.digits.count) {
                let rounded = String(format: "%.*e", decimal.digits.count - 1, number.magnitude)
                let digits = rounded.prefix { $0 != "e" }.compactMap(\.wholeNumberValue).map(UInt8.init)
                var significant = digits[...]
                while significant.last == 0 { significant.removeLast() }
                if Array(significant) == decimal.digits { return true }
            }
            return decimal.isWhole && decimal.integerMagnitude == UInt64(number.magnitude)
        }

        private mutating func expectWord(_ word: StaticString) throws {
            let start = index
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { throw corrupted("unexpected character") }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
                throw corrupted("unexpected character", at: start)
            }
            index += count
        }

        @inline(__always)
        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index += 1
                default: return
                }
            }
        }

        @inline(__always)
        private func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        /// `line L, column C` of a byte offset.
        private func position(of offset: Int) -> String {
            let (line, column) = StoredValueJSON.lineAndColumn(of: offset, in: bytes)
            return "line \(line), column \(column)"
        }

        private func corrupted(_ what: String, at offset: Int? = nil) -> StorageError {
            StorageError(.dataCorrupted, message: "\(what) at \(position(of: offset ?? index))")
        }
    }
}

extension UnsafeRawBufferPointer {
    /// Whether the bytes are valid UTF-8.
    package var isValidUTF8: Bool {
        var iterator = makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
