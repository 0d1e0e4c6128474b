import Foundation

extension Storable where Self == FileStore {
    /// A ``FileStore`` on the file at `url`, so call sites read
    /// `AppSettings(store: try .file(at: url))`.
    ///
    /// - Throws: What ``FileStore/init(url:format:)`` throws.
    public static func file(at url: URL, format: FileStore.Format? = nil) throws -> FileStore {
        try FileStore(url: url, format: format)
    }
}

extension Storable where Self == UserDefaultsStore {
    /// `UserDefaultsStore.standard`.
    public static var userDefaults: UserDefaultsStore { .standard }
}
