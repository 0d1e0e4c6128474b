public import Foundation

extension Storable where Self == FileStore {
    /// A ``FileStore`` on the file at `url`, so call sites read
    /// `AppSettings(store: try .file(at: url))`.
    ///
    /// - Throws: What ``FileStore/init(url:format:options:)`` throws.
    public static func file(
        at url: URL, format: FileStore.Format? = nil, options: FileStore.Options = FileStore.Options()
    ) throws -> FileStore {
        try FileStore(url: url, format: format, options: options)
    }
}
