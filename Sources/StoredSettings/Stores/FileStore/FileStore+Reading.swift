package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileStore {
    /// One version of the file, parsed.
    struct LoadedFile {
        var values: [String: StoredValue]
        var fingerprint: FileFingerprint
        var encoding: PropertyListValue.FileEncoding
        /// A JSON file's text for each key, kept for writing unchanged keys back as they were.
        var source = StoredValueJSON.SourceText()
    }

    /// What ``init(url:format:options:)`` does before the store exists: read the file (through
    /// a symbolic link, with its checks), apply the corrupt-file policy, check permissions.
    /// Only moving a corrupt file aside takes the cross-process lock.
    static func open(
        path: String, format: Format, options: Options,
        state: inout FileState, reports: inout [StorageError]
    ) throws -> [String: StoredValue] {
        var target = path
        let loaded: LoadedFile?
        do {
            do {
                // Most settings files are no link: only a link pays for the `lstat`s of its checks.
                loaded = try load(path: path, format: format, options: options, followingLink: false)
            } catch is FileSystem.SymbolicLinkFound {
                target = try FileSystem.resolvingSymbolicLinks(path)
                loaded = try load(path: target, format: format, options: options)
            }
        } catch let error as StorageError where isCorruption(error) && options.corruptFilePolicy == .moveAside {
            // Moving the file aside is a write: through no link another user could have planted.
            try FileSystem.checkNoLinkOfAnotherUser(on: path)
            target = try FileSystem.resolvingSymbolicLinks(path)
            let lock = state.lock(forTarget: target)
            loaded = try lock.withLock {
                try loadMovingAsideIfCorrupt(path: target, format: format, options: options, reports: &reports)
            }
        }
        guard let loaded else { return [:] }
        state.fingerprint = loaded.fingerprint
        state.encoding = loaded.encoding
        state.source = loaded.source
        if loaded.fingerprint.permissions & 0o022 != 0 {
            reports.append(insecurePermissionsError(path: target, permissions: loaded.fingerprint.permissions))
        }
        return loaded.values
    }

    /// Reads and parses the file at `path` (resolved already, or read with `followingLink: false`);
    /// `nil` when there is none. Throws as ``init(url:format:options:)`` does, naming `path`.
    static func load(path: String, format: Format, options: Options, followingLink: Bool = true) throws -> LoadedFile? {
        do {
            guard
                let (data, fingerprint) = try FileSystem.readFile(
                    atPath: path, maximumSize: options.maximumFileSize, followingLink: followingLink)
            else {
                return nil
            }
            let (values, encoding, source) = try decode(data, format: format)
            return LoadedFile(values: values, fingerprint: fingerprint, encoding: encoding, source: source)
        } catch let error as StorageError {
            throw error.adding(location: path)
        }
    }

    /// The settings in a settings file's bytes, parsed and checked as a store reads its file, for
    /// every reader of settings files (`stored import` too).
    package static func parseContents(_ data: Data, format: Format) throws -> [String: StoredValue] {
        try decode(data, format: format).0
    }

    /// The values in a file's bytes, and for JSON the text of each. Zero bytes are an empty store.
    package static func decode(_ data: Data, format: Format) throws -> (
        [String: StoredValue], PropertyListValue.FileEncoding, StoredValueJSON.SourceText
    ) {
        if data.isEmpty { return ([:], .xml, StoredValueJSON.SourceText()) }
        let root: StoredValue
        let encoding: PropertyListValue.FileEncoding
        var source = StoredValueJSON.SourceText()
        switch format {
        case .json:
            (root, source) = try StoredValueJSON.parseKeepingSource(data)
            encoding = .xml
        case .propertyList:
            (root, encoding) = try PropertyListValue.parseFile(data)
        }
        guard case .dictionary(let values) = root else {
            throw StorageError(
                .dataCorrupted, foundKind: root.kind,
                message: "the root is not an object but \(root.kind == "array" ? "an" : "a") \(root.kind)")
        }
        return (values, encoding, source)
    }

    /// Whether `error` means the file's contents are unreadable (not that reading failed).
    static func isCorruption(_ error: StorageError) -> Bool {
        error.code == .dataCorrupted || error.code == .nestingTooDeep
    }

    /// Under the file lock: loads the file; if it still does not parse, renames it to
    /// `<name>.corrupt-<timestamp>` and reports that. Returns `nil` (an empty store) then.
    static func loadMovingAsideIfCorrupt(
        path: String, format: Format, options: Options, reports: inout [StorageError]
    ) throws -> LoadedFile? {
        do {
            return try load(path: path, format: format, options: options)
        } catch let error as StorageError where isCorruption(error) {
            let destination = try moveAside(path: path)
            reports.append(
                StorageError(
                    error.code, location: path,
                    message:
                        "\(error.message ?? error.code.summary); moved the file to \((destination as NSString).lastPathComponent) and started empty"
                ))
            return nil
        }
    }

    /// Renames the file at `path` to a free `<name>.corrupt-<yyyyMMdd'T'HHmmss'Z'>[-n]` name.
    static func moveAside(path: String) throws -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        let stamp = String(
            format: "%04d%02d%02dT%02d%02d%02dZ",
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)
        )
        for attempt in 0..<100 {
            let destination = path + ".corrupt-" + stamp + (attempt == 0 ? "" : "-\(attempt)")
            var info = stat()
            if lstat(destination, &info) == 0 { continue }
            guard rename(path, destination) == 0 else {
                throw FileSystem.ioError("cannot move the unreadable file aside", path: path)
            }
            return destination
        }
        throw StorageError(
            .io, location: path, message: "cannot move the unreadable file aside: too many earlier copies")
    }

    static func insecurePermissionsError(path: String, permissions: UInt32) -> StorageError {
        StorageError(
            .insecurePermissions, location: path,
            message:
                "the file can be written by other users (mode \(String(permissions, radix: 8).leftPadded(to: 4))); run chmod go-w on it"
        )
    }
}
