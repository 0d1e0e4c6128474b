extension FileStore {
    /// A `dataCorrupted` warning for each key the JSON file gave twice in one object (the
    /// first few), as last read, naming the setting, the path inside its value and both
    /// lines. The later value is the one read.
    package var warnings: [StorageError] {
        let duplicates = withFileLock { $0.source.duplicateKeys }
        guard !duplicates.isEmpty else { return [] }
        let location = describedLocation
        return duplicates.map { $0.warning(location: location) }
    }
}
