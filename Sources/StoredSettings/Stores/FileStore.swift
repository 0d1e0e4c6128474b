import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A store that keeps settings in one JSON or property-list file: the backend for
/// command-line tools, and for apps that want a file they control.
///
/// ```swift
/// let store = try FileStore(url: URL(fileURLWithPath: "settings.json"))
/// let settings = AppSettings(store: store)
/// ```
///
/// The file is read when the store is created; reads are served from memory. Every write is on
/// disk before it returns, written atomically: the new contents go to a temporary file in the
/// same folder, which is `fsync`ed and `rename`d over the file, so a crash leaves either the
/// old or the new file, never a half-written one.
///
/// JSON files are pretty-printed with sorted keys and a trailing newline, so people can read,
/// diff and edit them.
///
/// Thread-safety: every member may be used from any thread or task.
public final class FileStore: Storable {
    /// The file format of a ``FileStore``.
    public enum Format: Sendable, Equatable {
        /// JSON text, pretty-printed with sorted keys.
        case json
        /// An XML property list.
        case propertyList

        /// The format for a file name: `propertyList` for `.plist`, `json` otherwise.
        public init(pathExtension: String) {
            self = pathExtension.lowercased() == "plist" ? .propertyList : .json
        }
    }

    /// The settings file.
    public let url: URL
    /// The format the file is read and written in.
    public let format: Format

    private let storage: DictionaryStorage
    private let writeLock = Lock(())

    /// Opens the settings file at `url`, reading it if it exists.
    ///
    /// A missing file is an empty store; it and its parent folders are created on the first
    /// write.
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - format: The file format; by default chosen by the file extension (`.plist` is a
    ///     property list, anything else JSON).
    /// - Throws: ``StorageError/Code/dataCorrupted`` when the file does not parse or its root is
    ///   not an object (the file is left untouched); ``StorageError/Code/io`` when it cannot be
    ///   read.
    public init(url: URL, format: Format? = nil) throws {
        self.url = url.standardizedFileURL
        self.format = format ?? Format(pathExtension: url.pathExtension)
        let values = try Self.read(url: self.url, format: self.format)
        self.storage = DictionaryStorage(values)
    }

    /// Opens `settings.json` of `application` in the user's configuration folder:
    /// `$XDG_CONFIG_HOME/<application>/settings.json`, else
    /// `$HOME/.config/<application>/settings.json`.
    ///
    /// - Throws: ``StorageError/Code/invalidKey`` for an application name that is empty or
    ///   contains `/`, `..`, NUL or control characters; otherwise what ``init(url:format:)``
    ///   throws.
    public convenience init(application: String) throws {
        try self.init(url: Self.configurationURL(application: application))
    }

    /// The path of the file, for error messages.
    public var location: String? { url.path }

    /// The value stored under `key`, from memory.
    public func value(forKey key: String) -> StoredValue? {
        storage.value(forKey: key)
    }

    /// The value and the store's revision, from memory.
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        storage.valueWithRevision(forKey: key)
    }

    /// Every key in the file.
    public func keys() -> [String] {
        storage.keys()
    }

    /// Stores `value` under `key` and writes the file before returning.
    ///
    /// - Throws: ``StorageError/Code/invalidKey``, ``StorageError/Code/encodingFailed`` (a NaN
    ///   in JSON), ``StorageError/Code/io`` naming the path and the `errno` text. The file and
    ///   the values in memory keep the previous value then.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        try update(forKey: key) { $0 = value }
    }

    /// Reads, changes and writes the value as one step, writing the file before returning.
    ///
    /// - Throws: What `body` throws, or what the write throws; nothing changes then.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try validateKeyName(key, path: url.path)
        return try writeLock.withLock { _ in
            var values = storage.snapshot
            var value = values[key]
            let result = try body(&value)
            let old = values[key]
            switch (old, value) {
            case (nil, nil): return result
            case let (old?, new?) where old.isIdentical(to: new): return result
            default: break
            }
            values[key] = value
            do {
                try write(values)
            } catch let error as StorageError {
                throw error.adding(key: key, path: url.path)
            }
            storage.replaceAll(with: values)
            return result
        }
    }

    /// Every change committed through this store, in order.
    public func changes() -> AsyncStream<StoredChange> {
        storage.changes()
    }

    // MARK: - Reading and writing the file

    private static func read(url: URL, format: Format) throws -> [String: StoredValue] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch CocoaError.fileReadNoSuchFile {
            return [:]
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return [:] }
            throw StorageError(.io, path: url.path, message: String(describing: error))
        }
        if data.isEmpty { return [:] }
        let root: StoredValue
        do {
            switch format {
            case .json:
                root = try StoredValueJSON.parse(data)
            case .propertyList:
                let object = try PropertyListSerialization.propertyList(from: data, format: nil)
                guard let value = PropertyListValue.storedValue(from: object) else {
                    throw StorageError(.dataCorrupted, message: "the property list holds a value that is not a stored value")
                }
                root = value
            }
        } catch let error as StorageError {
            throw error.adding(path: url.path)
        } catch {
            throw StorageError(.dataCorrupted, path: url.path, message: (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "the file is not a valid property list")
        }
        guard case .dictionary(let values) = root else {
            throw StorageError(.dataCorrupted, path: url.path, foundKind: root.kind, message: "the root is not an object")
        }
        return values
    }

    private func write(_ values: [String: StoredValue]) throws {
        let data: Data
        switch format {
        case .json:
            data = try StoredValueJSON.data(from: .dictionary(values))
        case .propertyList:
            let object = try PropertyListValue.object(from: .dictionary(values), nativeDates: true)
            do {
                data = try PropertyListSerialization.data(fromPropertyList: object, format: .xml, options: 0)
            } catch {
                throw StorageError(.encodingFailed, path: url.path, message: String(describing: error))
            }
        }
        try AtomicFile.write(data, to: url)
    }

    // MARK: - Paths

    static func configurationURL(application: String) throws -> URL {
        try validateKeyName(application)
        if application.contains("/") || application.contains("..") || application.hasPrefix("-") {
            throw StorageError(.invalidKey, path: application, message: "an application name cannot contain '/' or '..' or start with '-'")
        }
        let environment = ProcessInfo.processInfo.environment
        let base: URL
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else if let home = environment["HOME"], home.hasPrefix("/"), home != "/" {
            base = URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(".config", isDirectory: true)
        } else {
            base = FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config", isDirectory: true)
        }
        return base.appendingPathComponent(application, isDirectory: true).appendingPathComponent("settings.json")
    }
}
