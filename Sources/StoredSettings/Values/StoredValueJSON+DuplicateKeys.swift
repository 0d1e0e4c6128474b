extension StoredValueJSON {
    /// The line and column of the byte at `offset` in `bytes`; both count from 1, columns in
    /// Unicode scalars, as editors count them.
    static func lineAndColumn(of offset: Int, in bytes: UnsafeRawBufferPointer) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes[0..<min(offset, bytes.count)] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// A key given twice in one object of a JSON file. The parser keeps the later value, as
    /// JSON parsers do, but the earlier one is probably a mistake, so ``FileStore`` warns.
    package struct DuplicateKey: Sendable, Equatable {
        /// The most a file's warnings name: a file with more repeated keys is named by its first
        /// ones, so finding their lines stays cheap however large the file.
        static let maximumReported = 16

        /// The key's path from the root object, outermost first: `["layout", "indent"]`.
        var path: [String]
        /// The line (from 1) of the key's first occurrence.
        private var firstLine: Int
        /// The line (from 1) of the later occurrence, whose value is kept.
        package var laterLine: Int
        /// The column (from 1, in Unicode scalars) where the later occurrence starts.
        package var laterColumn: Int

        /// A repeated key found at the byte offsets `firstOffset` and `laterOffset` of `bytes`.
        init(path: [String], firstOffset: Int, laterOffset: Int, in bytes: UnsafeRawBufferPointer) {
            self.path = path
            firstLine = StoredValueJSON.lineAndColumn(of: firstOffset, in: bytes).line
            (laterLine, laterColumn) = StoredValueJSON.lineAndColumn(of: laterOffset, in: bytes)
        }

        /// The warning, naming the setting (the root object's key), the path below it and both
        /// lines: `Setting 'pageSize' in file ~/settings.json: the key is given twice, on lines 2
        /// and 4; the later value is used.`
        package func warning(location: String) -> StorageError {
            let lines = firstLine == laterLine ? "on line \(firstLine)" : "on lines \(firstLine) and \(laterLine)"
            let subject = path.count == 1 ? "the key" : "the key '\(path.joined(separator: "."))'"
            return StorageError(
                .dataCorrupted, key: path.first, location: location,
                message: "\(subject) is given twice, \(lines); the later value is used")
        }
    }
}
