package import Foundation

/// Converts ``StoredValue`` trees to and from JSON text, in the forms <doc:ConfigurationFiles>
/// gives under "Exact values". Whole numbers below 2^64 in magnitude that neither `Int64` nor a
/// `Double` holds exactly are read as text, for the value layer to judge by their digits.
package enum StoredValueJSON {
    /// The deepest nesting accepted, counting the root container as 1.
    package static let maximumDepth = 64

    // MARK: Writing

    /// The JSON bytes of `value`, indented for people to read when `pretty`, else on one line.
    /// - Throws: `encodingFailed` for NaN, infinities and dates ISO 8601 text cannot hold;
    ///   `nestingTooDeep` beyond ``maximumDepth`` (which ``parse(_:)`` refuses).
    package static func data(from value: StoredValue, pretty: Bool = true) throws -> Data {
        try data(from: value, pretty: pretty, keeping: SourceText())
    }

    /// As ``data(from:pretty:)``, but each root member whose value is unchanged since `source` read
    /// it is written as the file spelled it (`1e2`, numbers no stored value holds exactly).
    static func data(from value: StoredValue, pretty: Bool = true, keeping source: SourceText) throws -> Data {
        var writer = Writer(pretty: pretty, source: source)
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
        let source: SourceText

        init(pretty: Bool, source: SourceText) {
            self.pretty = pretty
            self.source = source
            bytes.reserveCapacity(1024)
        }

        mutating func write(_ value: StoredValue, indent: Int) throws {
            switch value {
            case .bool(let flag): append(flag ? "true" : "false")
            case .int(let number): append(String(number))
            case .double(let number):
                guard number.isFinite else {
                    throw StorageError(
                        .encodingFailed, expectedType: "Double", message: "JSON has no form for NaN or infinity")
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
                try checkNesting(indent)
                if items.isEmpty {
                    append("[]")
                    return
                }
                bytes.append(UInt8(ascii: "["))
                for (index, item) in items.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    newline(indent + 1)
                    try StorageError.prefixingCodingPath(String(index)) { try write(item, indent: indent + 1) }
                }
                newline(indent)
                bytes.append(UInt8(ascii: "]"))
            case .dictionary(let items):
                try checkNesting(indent)
                if items.isEmpty {
                    append("{}")
                    return
                }
                bytes.append(UInt8(ascii: "{"))
                for (index, (key, item)) in items.sorted(by: { $0.key < $1.key }).enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    newline(indent + 1)
                    writeString(key)
                    append(pretty ? ": " : ":")
                    // The file's own text of a member it holds unchanged, as it was read.
                    if indent == 0, let text = source.text(of: key, ifIdenticalTo: item) {
                        text.withUnsafeBytes { bytes.append(contentsOf: $0) }
                    } else {
                        try StorageError.prefixingCodingPath(key) { try write(item, indent: indent + 1) }
                    }
                }
                newline(indent)
                bytes.append(UInt8(ascii: "}"))
            }
        }

        /// Refuses a container `indent` containers deep when ``parse(_:)`` would refuse to read
        /// it back: a file that cannot be read loses every key in it.
        func checkNesting(_ indent: Int) throws {
            guard indent >= maximumDepth else { return }
            throw StorageError(.nestingTooDeep, message: "nesting deeper than \(maximumDepth) levels")
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
                case 0..<0x20, 0x7F: append("\\u" + String(byte, radix: 16).leftPadded(to: 4))
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    // MARK: Reading

    /// Parses RFC 8259 JSON (UTF-8, optional byte-order mark), keeping each number's exact kind.
    /// Throws `nestingTooDeep` beyond ``maximumDepth``; `dataCorrupted`, with line, column and
    /// coding path, for bad JSON or UTF-8, `null`, a number no `Double` holds, or equivalent keys.
    package static func parse(_ data: Data) throws -> StoredValue {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var parser = Parser(bytes: buffer)
            return try parser.parseDocument()
        }
    }

    /// As ``parse(_:)``, keeping each root member's text for ``data(from:pretty:keeping:)``.
    static func parseKeepingSource(_ data: Data) throws -> (value: StoredValue, source: SourceText) {
        let (value, members, duplicates) = try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            var parser = Parser(bytes: buffer, recordingSource: true)
            let value = try parser.parseDocument()
            return (value, parser.sourceMembers, parser.duplicateKeys)
        }
        guard case .dictionary = value else { return (value, SourceText()) }
        return (value, SourceText(data: data, members: members, duplicateKeys: duplicates))
    }

    /// Each root member's text as the file spelled it, with the value it was read as; empty for a
    /// file not read yet. It shares the file's bytes rather than copying them.
    package struct SourceText: Sendable {
        /// Where a member's value is in the file's bytes, and the value read there.
        typealias Member = (range: Range<Int>, value: StoredValue)

        private let data: Data
        private let members: [String: Member]
        /// The keys the file gave twice in one object (the first few).
        package let duplicateKeys: [DuplicateKey]

        /// No source: every member is written from the tree.
        init() {
            data = Data()
            members = [:]
            duplicateKeys = []
        }

        fileprivate init(data: Data, members: [String: Member], duplicateKeys: [DuplicateKey]) {
            self.data = data
            self.members = members
            self.duplicateKeys = duplicateKeys
        }

        /// The line and column (from 1, columns in Unicode scalars) where the value of the
        /// member `key` starts in the file; `nil` for a key the file does not hold.
        package func position(ofValueFor key: String) -> (line: Int, column: Int)? {
            guard let member = members[key] else { return nil }
            return data.withUnsafeBytes { StoredValueJSON.lineAndColumn(of: member.range.lowerBound, in: $0) }
        }

        /// The file's text for the member `key` when `value` is identical to what it was read as.
        func text(of key: String, ifIdenticalTo value: StoredValue) -> Data? {
            guard let member = members[key], member.value.isIdentical(to: value) else { return nil }
            let start = data.startIndex
            return data[(start + member.range.lowerBound)..<(start + member.range.upperBound)]
        }
    }
}
