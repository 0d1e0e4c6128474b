public import Foundation
public import StoredSettings

/// A ``FileStore`` on a file in a fresh temporary folder, removed when the store is released.
///
/// Use it to test code against a real file, and ``reopened()`` to test what survives a
/// relaunch:
///
/// ```swift
/// let store = try TemporaryFileStore()
/// AppSettings(store: store).launchCount = 3
/// let relaunched = AppSettings(store: try store.reopened())
/// #expect(relaunched.launchCount == 3)
/// ```
///
/// Every ``Storable`` call is forwarded to the underlying ``fileStore``.
///
/// Thread-safety: every member may be used from any thread or task.
public final class TemporaryFileStore: Storable {
    /// The temporary folder that holds the file; removed with everything in it on release.
    public let directory: URL
    /// The settings file.
    public let url: URL
    /// The store on the file.
    public let fileStore: FileStore

    /// Creates an empty settings file store in a new folder under the system's temporary
    /// folder (`FileManager.temporaryDirectory`).
    ///
    /// - Parameters:
    ///   - fileName: The file's name; its extension picks the format unless `format` is given.
    ///   - format: The file format; `nil` chooses it from `fileName`.
    ///   - options: The store's options (size limit, corrupt-file policy, change checks).
    /// - Throws: ``StorageError/Code/io`` when the folder cannot be created.
    public init(
        fileName: String = "settings.json", format: FileStore.Format? = nil,
        options: FileStore.Options = FileStore.Options()
    ) throws {
        let base = FileManager.default.temporaryDirectory
        let directory = base.appendingPathComponent("StoredSettings-\(UUID().uuidString)", isDirectory: true)
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StorageError(
                .io, location: directory.path,
                message: "cannot create the temporary folder: \(error.localizedDescription)")
        }
        self.directory = directory
        self.url = directory.appendingPathComponent(fileName)
        self.fileStore = try FileStore(url: url, format: format, options: options)
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    /// A new ``FileStore`` on the same file, as a relaunched process would open it.
    ///
    /// The folder stays as long as this `TemporaryFileStore` lives; keep it alive while using
    /// the reopened store.
    ///
    /// - Throws: What ``FileStore/init(url:format:options:)`` throws.
    public func reopened() throws -> FileStore {
        try FileStore(url: url, format: fileStore.format, options: fileStore.options)
    }

    /// The file's path.
    public var location: String? { fileStore.location }

    /// Forwards to ``FileStore/value(forKey:)``.
    public func value(forKey key: String) -> StoredValue? { fileStore.value(forKey: key) }

    /// Forwards to ``FileStore/valueWithRevision(forKey:)``.
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        fileStore.valueWithRevision(forKey: key)
    }

    /// Forwards to ``FileStore/setValue(_:forKey:)``.
    ///
    /// - Throws: What ``FileStore/setValue(_:forKey:)`` throws.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        try fileStore.setValue(value, forKey: key)
    }

    /// Forwards to ``FileStore/keys()``.
    public func keys() -> [String] { fileStore.keys() }

    /// Forwards to ``FileStore/update(forKey:_:)``.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What ``FileStore/update(forKey:_:)`` throws.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try fileStore.update(forKey: key, body)
    }

    /// Forwards to ``FileStore/batch(_:)``.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What ``FileStore/batch(_:)`` throws.
    public func batch<R>(_ body: (inout StoreBatch) throws -> R) throws -> R {
        try fileStore.batch(body)
    }

    /// Forwards to ``FileStore/changes()``.
    public func changes() -> AsyncStream<StoredChange> { fileStore.changes() }
}

extension TemporaryFileStore: ChangeSnapshotting {
    /// Forwards to ``FileStore/subscription(readingValueForKey:)``.
    public func subscription(readingValueForKey key: String) -> KeySubscription {
        fileStore.subscription(readingValueForKey: key)
    }

    /// Forwards to ``FileStore/keySetSubscription(onChange:)``: settings made on this store are
    /// observed as on its file store.
    public func keySetSubscription(onChange: @escaping @Sendable (StoredChange) -> Void) -> KeySetSubscription {
        fileStore.keySetSubscription(onChange: onChange)
    }
}

extension TemporaryFileStore: BackgroundWritableStore {
    /// Forwards to ``FileStore/setValueInBackground(_:forKey:)``.
    public func setValueInBackground(_ value: StoredValue?, forKey key: String) throws {
        try fileStore.setValueInBackground(value, forKey: key)
    }
}
