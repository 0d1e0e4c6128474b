package import Foundation

extension PropertyListValue {
    /// The two encodings of a property-list file.
    package enum FileEncoding: Sendable, Equatable {
        /// `<?xml …?><plist>`: text people can read and edit.
        case xml
        /// `bplist00`: compact, and able to hold every string (NUL included).
        case binary
    }

    /// The deepest nesting accepted in a property-list file, counting the root container as 1:
    /// the same limit as JSON files (``StoredValueJSON/maximumDepth``).
    package static var maximumDepth: Int { StoredValueJSON.maximumDepth }

    /// The encoding of property-list bytes: binary when they start with `bplist`.
    package static func encoding(of data: Data) -> FileEncoding {
        data.starts(with: Array("bplist".utf8)) ? .binary : .xml
    }

    /// Parses a property-list file (XML or binary) into a tree.
    ///
    /// The nesting limit is checked on the parsed tree for XML: `PropertyListSerialization`
    /// refuses lists nested more deeply than its own limit (a few hundred levels) with an error,
    /// so no depth reaches this package's recursion, and a check of the result cannot be fooled
    /// by how the text is written (a `</array>` inside a comment). A binary list is checked
    /// before parsing, by a walk of its object table that stops at the limit and at reference
    /// cycles (objects that contain themselves, which text cannot express).
    ///
    /// - Returns: The tree and the encoding the file uses, so a rewrite can keep it.
    /// - Throws: ``StorageError/Code/nestingTooDeep`` beyond ``maximumDepth`` or for a binary
    ///   list whose objects refer to themselves; ``StorageError/Code/dataCorrupted`` with the
    ///   parser's message for bytes that are not a property list, or hold an object that is not
    ///   a stored value, and naming both keys for a dictionary with two canonically equivalent
    ///   keys (``PropertyListKeyCheck``), which Swift dictionaries would merge. XML nested beyond `PropertyListSerialization`'s own limit is
    ///   ``StorageError/Code/nestingTooDeep`` too, with the parser's message.
    package static func parseFile(_ data: Data) throws -> (value: StoredValue, encoding: FileEncoding) {
        let encoding = encoding(of: data)
        if encoding == .binary {
            try data.withUnsafeBytes { try BinaryDepthWalk(bytes: $0).check() }
        }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            // The parser's own depth limit ("Too many nested arrays or dictionaries"): the same
            // failure as this package's limit, so the same code.
            if let detail, detail.localizedCaseInsensitiveContains("too many nested") {
                throw StorageError(.nestingTooDeep, message: "nesting deeper than \(maximumDepth) levels (\(detail))")
            }
            throw StorageError(.dataCorrupted, message: detail ?? "the file is not a valid property list")
        }
        guard let value = storedValue(from: object) else {
            throw StorageError(.dataCorrupted, message: "the property list holds a value that is not a stored value")
        }
        // The parser's dictionaries have merged canonically equivalent keys; find them in the bytes.
        try data.withUnsafeBytes { buffer in
            switch encoding {
            case .xml: try PropertyListKeyCheck.checkXML(buffer)
            case .binary: try PropertyListKeyCheck.checkBinary(buffer)
            }
        }
        if value.depth > maximumDepth {
            throw StorageError(.nestingTooDeep, message: "nesting deeper than \(maximumDepth) levels")
        }
        return (value, encoding)
    }

    /// The bytes of a property-list file holding `value`, in `encoding`.
    ///
    /// - Throws: ``StorageError/Code/encodingFailed`` for what the encoding cannot hold (see
    ///   ``xmlData(from:)``).
    package static func fileData(from value: StoredValue, encoding: FileEncoding) throws -> Data {
        switch encoding {
        case .xml:
            return try xmlData(from: value)
        case .binary:
            let object = try object(from: value, nativeDates: true, allowingEveryCharacter: true)
            do {
                return try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
            } catch {
                throw StorageError(.encodingFailed, wrapping: error)
            }
        }
    }

    /// Measures the nesting of a binary property list from its object table, without
    /// recursing more than ``maximumDepth`` levels and remembering each object's height, so
    /// shared objects are measured once and reference cycles are found.
    struct BinaryDepthWalk {
        let bytes: UnsafeRawBufferPointer

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
            var heights = [Int8](repeating: 0, count: Int(objectCount)) // 0 unknown, -1 in progress, else height + 1
            let table = Int(tableOffset)
            func height(of object: Int, level: Int) throws -> Int {
                switch heights[object] {
                case -1: throw StorageError(.nestingTooDeep, message: "the property list refers to itself")
                case 0: break
                default:
                    let known = Int(heights[object]) - 1
                    if known > 0, level + known - 1 > maximumDepth {
                        throw StorageError(.nestingTooDeep, message: "nesting deeper than \(maximumDepth) levels")
                    }
                    return known
                }
                // An 8-byte offset may exceed Int.max: compare before converting, never trap.
                let rawOffset = readNumber(at: table + object * offsetSize, size: offsetSize)
                guard rawOffset >= 8, rawOffset < UInt64(table) else {
                    throw corrupted("an object offset is out of range")
                }
                let offset = Int(rawOffset)
                let marker = bytes[offset]
                let type = marker >> 4
                guard type == 0xA || type == 0xB || type == 0xC || type == 0xD else {
                    heights[object] = 1
                    return 0
                }
                guard level <= maximumDepth else {
                    throw StorageError(.nestingTooDeep, message: "nesting deeper than \(maximumDepth) levels")
                }
                heights[object] = -1
                var position = offset + 1
                var children = Int(marker & 0x0F)
                if children == 0x0F {
                    guard position < table, bytes[position] >> 4 == 0x1, bytes[position] & 0x0F <= 3 else {
                        throw corrupted("an object's length is invalid")
                    }
                    let size = 1 << Int(bytes[position] & 0x0F)
                    guard position + 1 + size <= table else { throw corrupted("an object's length is invalid") }
                    let length = readNumber(at: position + 1, size: size)
                    guard length <= UInt64(table) else { throw corrupted("an object's length is invalid") }
                    children = Int(length)
                    position += 1 + size
                }
                if type == 0xD { children *= 2 }
                guard position + children * referenceSize <= table else {
                    throw corrupted("an object's references are out of range")
                }
                var tallest = 0
                for child in 0..<children {
                    let reference = readNumber(at: position + child * referenceSize, size: referenceSize)
                    guard reference < UInt64(heights.count) else {
                        throw corrupted("an object reference is out of range")
                    }
                    tallest = max(tallest, try height(of: Int(reference), level: level + 1))
                }
                let result = tallest + 1
                heights[object] = Int8(result + 1)
                return result
            }
            _ = try height(of: Int(topObject), level: 1)
        }

        private func readNumber(at offset: Int, size: Int) -> UInt64 {
            var value: UInt64 = 0
            for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
            return value
        }

        private func corrupted(_ message: String) -> StorageError {
            StorageError(.dataCorrupted, message: message)
        }
    }
}
