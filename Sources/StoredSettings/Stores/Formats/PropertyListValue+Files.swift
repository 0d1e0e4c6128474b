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
    static func encoding(of data: Data) -> FileEncoding {
        data.starts(with: Array("bplist".utf8)) ? .binary : .xml
    }

    /// Parses a property-list file (XML or binary) into a tree and its encoding, which a rewrite
    /// keeps; binary is checked before Foundation parses it (``BinaryPropertyListCheck``), XML
    /// after. Throws `nestingTooDeep` beyond ``maximumDepth`` or for self-reference;
    /// `dataCorrupted` for what no stored value or later write could hold: a set, `null`, a lone
    /// surrogate, equivalent keys, a character XML 1.0 forbids (from `&#1;`).
    package static func parseFile(_ data: Data) throws -> (value: StoredValue, encoding: FileEncoding) {
        let encoding = encoding(of: data)
        if encoding == .binary {
            try data.withUnsafeBytes { try BinaryPropertyListCheck(bytes: $0).check() }
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
        // The parser's dictionaries have merged canonically equivalent keys; find them in the
        // bytes (the binary check above did for a binary list).
        if encoding == .xml {
            try data.withUnsafeBytes { try PropertyListKeyCheck.checkXML($0) }
            try checkXMLCharacters(read: value)
        }
        if value.depth > maximumDepth {
            throw StorageError(.nestingTooDeep, message: "nesting deeper than \(maximumDepth) levels")
        }
        return (value, encoding)
    }

    /// Throws `dataCorrupted` when a string or key read from XML holds a character the writer
    /// refuses (from `&#1;`), naming the root member as its key; a bad key is never quoted.
    private static func checkXMLCharacters(read value: StoredValue) throws {
        func check(_ value: StoredValue) throws {
            switch value {
            case .string(let text):
                try checkXMLCharacters(text, inKey: false)
            case .array(let items):
                for (index, item) in items.enumerated() {
                    try StorageError.prefixingCodingPath(String(index)) { try check(item) }
                }
            case .dictionary(let items):
                for (key, item) in items {
                    try checkXMLCharacters(key, inKey: true)
                    try StorageError.prefixingCodingPath(key) { try check(item) }
                }
            default:
                break
            }
        }
        do {
            try check(value)
        } catch var error as StorageError {
            error.code = .dataCorrupted
            error.expectedType = nil
            if !error.codingPath.isEmpty { error.key = error.codingPath.removeFirst() }
            error.message =
                (error.message ?? "")
                + " (XML 1.0 allows it in no form, not even as a character reference, so it could not be written back); keep such text in a binary property list or JSON"
            throw error
        }
    }

    /// The bytes of a property-list file holding `value`; throws `encodingFailed` for what
    /// `encoding` cannot hold, `nestingTooDeep` beyond ``maximumDepth`` (the root counted).
    package static func fileData(from value: StoredValue, encoding: FileEncoding) throws -> Data {
        // What ``parseFile(_:)`` would refuse to read back is not written: an unreadable file
        // loses every key in it.
        if value.depth > maximumDepth {
            throw StorageError(.nestingTooDeep, message: "nesting deeper than \(maximumDepth) levels")
        }
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
}
