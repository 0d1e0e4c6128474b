extension StorageError.Code {
    /// A key in a settings file, an environment variable with the tool's prefix or a
    /// command-line option that no declared setting uses: usually a misspelling. Reported as a
    /// warning unless the tool asks for it to be an error.
    public static let unknownKey = StorageError.Code("unknownKey")
}
