import Foundation

/// Checks a binary property list before `PropertyListSerialization` parses it: Foundation accepts
/// kinds stored values have no form for, and on Linux some (a set, a number as a key) crash the
/// process while bridging. Refuses other kinds, lone surrogates, equivalent keys, nesting beyond
/// ``PropertyListValue/maximumDepth``, self-reference, and more than ``maximumValueCount`` values
/// (a shared object counted at every use).
struct BinaryPropertyListCheck {
    let bytes: UnsafeRawBufferPointer

    /// The most values a list may expand to: a JSON file within the default size limit
    /// (``FileStore/Options/maximumFileSize``, 16 MiB) holds no more, at a byte or more each.
    static let maximumValueCount: UInt64 = 16 << 20

    /// Throws `dataCorrupted` (malformed, or an object stored values cannot hold), `nestingTooDeep`
    /// (too deep, or self-referring) or `tooLarge` (more than ``maximumValueCount`` values).
    func check() throws {
        let count = bytes.count
        guard count >= 8 + 32 else { throw corrupted("the binary property list is truncated") }
        let trailer = count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        let objectCount = readNumber(at: trailer + 8, size: 8)
        let topObject = readNumber(at: trailer + 16, size: 8)
        let tableOffset = readNumber(at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            objectCount > 0, objectCount <= UInt64(count), topObject < objectCount,
            tableOffset >= 8, tableOffset < UInt64(trailer),
            UInt64(trailer) - tableOffset >= objectCount * UInt64(offsetSize)
        else { throw corrupted("the binary property list's trailer is invalid") }
        let table = Int(tableOffset)
        // 0 unknown, -1 in progress, else height + 1.
        var heights = [Int8](repeating: 0, count: Int(objectCount))
        // How many values each object expands to, once its height is known.
        var sizes = [UInt64](repeating: 1, count: Int(objectCount))

        /// The marker, element count and first content byte of an object.
        func header(of object: Int) throws -> (marker: UInt8, length: Int, start: Int) {
            // An 8-byte offset may exceed Int.max: compare before converting, never trap.
            let rawOffset = readNumber(at: table + object * offsetSize, size: offsetSize)
            guard rawOffset >= 8, rawOffset < UInt64(table) else { throw corrupted("an object offset is out of range") }
            let offset = Int(rawOffset)
            let marker = bytes[offset]
            var length = Int(marker & 0x0F)
            var start = offset + 1
            if length == 0x0F, marker >> 4 >= 0x4 {
                guard start < table, bytes[start] >> 4 == 0x1, bytes[start] & 0x0F <= 3 else {
                    throw corrupted("an object's length is invalid")
                }
                let size = 1 << Int(bytes[start] & 0x0F)
                guard start + 1 + size <= table else { throw corrupted("an object's length is invalid") }
                let value = readNumber(at: start + 1, size: size)
                guard value <= UInt64(table) else { throw corrupted("an object's length is invalid") }
                length = Int(value)
                start += 1 + size
            }
            return (marker, length, start)
        }

        /// The text of a string object, or `nil` for another kind.
        func text(of object: Int) throws -> String? {
            let (marker, length, start) = try header(of: object)
            switch marker >> 4 {
            case 0x5:
                guard start + length <= table else { throw corrupted("a string runs past the object table") }
                // Foundation reads these bytes as ISO 8859-1, each byte one scalar.
                var scalars = String.UnicodeScalarView()
                for byte in bytes[start..<(start + length)] { scalars.append(Unicode.Scalar(byte)) }
                return String(scalars)
            case 0x6:
                guard start + 2 * length <= table else { throw corrupted("a string runs past the object table") }
                let units = (0..<length).map { UInt16(bytes[start + 2 * $0]) << 8 | UInt16(bytes[start + 2 * $0 + 1]) }
                var scalars = String.UnicodeScalarView()
                var decoder = UTF16()
                var iterator = units.makeIterator()
                while case .scalarValue(let scalar) = decoder.decode(&iterator) { scalars.append(scalar) }
                guard scalars.count + scalars.count(where: { $0.value > 0xFFFF }) == length else {
                    throw corrupted("a string holds a lone UTF-16 surrogate, which no stored string can hold")
                }
                return String(scalars)
            default:
                return nil
            }
        }

        func height(of object: Int, level: Int) throws -> Int {
            switch heights[object] {
            case -1: throw StorageError(.nestingTooDeep, message: "the property list refers to itself")
            case 0: break
            default:
                let known = Int(heights[object]) - 1
                if known > 0, level + known - 1 > PropertyListValue.maximumDepth { throw tooDeep() }
                return known
            }
            let (marker, length, start) = try header(of: object)
            switch marker >> 4 {
            case 0xA, 0xD: break
            case 0x5, 0x6:
                _ = try text(of: object)
                heights[object] = 1
                return 0
            default:
                if let kind = Self.unsupportedKind(marker) {
                    throw corrupted("the property list holds \(kind), which stored values cannot hold")
                }
                let size: Int
                switch marker >> 4 {
                case 0x0: size = 0
                case 0x3: size = 8
                case 0x4: size = length
                default: size = 1 << Int(marker & 0x0F)
                }
                guard start + size <= table else { throw corrupted("an object runs past the object table") }
                // Foundation keeps the low 8 bytes of a 16-byte integer: only unsigned 64-bit ones fit.
                if marker == 0x14, bytes[start..<(start + 8)].contains(where: { $0 != 0 }) {
                    throw corrupted(
                        "the property list holds an integer beyond 64 bits, which stored values cannot hold")
                }
                heights[object] = 1
                return 0
            }
            guard level <= PropertyListValue.maximumDepth else { throw tooDeep() }
            heights[object] = -1
            let isDictionary = marker >> 4 == 0xD
            let references = isDictionary ? 2 * length : length
            guard start + references * referenceSize <= table else {
                throw corrupted("an object's references are out of range")
            }
            var keys: [String: String] = [:]
            var tallest = 0
            for index in 0..<references {
                let reference = readNumber(at: start + index * referenceSize, size: referenceSize)
                guard reference < UInt64(heights.count) else { throw corrupted("an object reference is out of range") }
                if isDictionary, index < length {
                    guard let key = try text(of: Int(reference)) else {
                        throw corrupted("a dictionary key is not a string")
                    }
                    if let existing = keys.updateValue(key, forKey: key) {
                        throw corrupted(
                            existing.unicodeScalars.elementsEqual(key.unicodeScalars)
                                ? "a dictionary holds the key \"\(key)\" twice"
                                : canonicallyEquivalentKeysMessage(existing, key))
                    }
                }
                tallest = max(tallest, try height(of: Int(reference), level: level + 1))
                sizes[object] += sizes[Int(reference)]
                guard sizes[object] <= Self.maximumValueCount else {
                    throw StorageError(
                        .tooLarge, message: "the property list expands to more than \(Self.maximumValueCount) values")
                }
            }
            heights[object] = Int8(tallest + 2)
            return tallest + 1
        }
        _ = try height(of: Int(topObject), level: 1)
    }

    /// What a scalar's marker holds when stored values have no such kind, else `nil`.
    private static func unsupportedKind(_ marker: UInt8) -> String? {
        switch marker >> 4 {
        case 0x0: marker == 0x08 || marker == 0x09 ? nil : marker == 0x00 ? "a null" : "a fill byte"
        case 0x1: marker <= 0x14 ? nil : "an integer wider than 16 bytes"
        case 0x2: marker == 0x22 || marker == 0x23 ? nil : "a real that is not 4 or 8 bytes"
        case 0x3: marker == 0x33 ? nil : "a malformed date"
        case 0x4: nil
        case 0x8: "a UID"
        case 0xB: "an ordered set"
        case 0xC: "a set"
        default: "an object of unknown kind 0x" + String(marker >> 4, radix: 16, uppercase: true)
        }
    }

    private func readNumber(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    private func tooDeep() -> StorageError {
        StorageError(.nestingTooDeep, message: "nesting deeper than \(PropertyListValue.maximumDepth) levels")
    }

    private func corrupted(_ message: String) -> StorageError {
        StorageError(.dataCorrupted, message: message)
    }
}
