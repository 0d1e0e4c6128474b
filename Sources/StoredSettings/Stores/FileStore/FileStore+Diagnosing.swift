extension FileStore: DiagnosingStore {
    /// None: a file that cannot be read is thrown by the initializer or reported when it is
    /// read again.
    package var errors: [StorageError] { [] }

    /// A `dataCorrupted` warning for each key the JSON file, as last read, gave twice in one
    /// object (the first few); the later value is the one read.
    package var warnings: [StorageError] {
        let duplicates = withFileLock { $0.source.duplicateKeys }
        guard !duplicates.isEmpty else { return [] }
        let location = describedLocation
        return duplicates.map { $0.warning(location: location) }
    }
}
