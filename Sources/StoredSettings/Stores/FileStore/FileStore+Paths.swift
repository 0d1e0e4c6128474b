package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileStore {
    /// `url`'s absolute path as the kernel will walk it: a relative one joined to its base (else
    /// the current folder), only trailing slashes dropped. Not `standardizedFileURL`: dropping
    /// `link/..` as text names another file.
    package static func absolutePath(of url: URL) -> String {
        // For a URL with no base, `path(percentEncoded:)` is `relativePath`, and cheaper.
        var path = url.baseURL == nil ? url.path(percentEncoded: false) : url.relativePath
        if !path.hasPrefix("/") {
            let base = url.baseURL?.path ?? FileManager.default.currentDirectoryPath
            path = base.hasSuffix("/") ? base + path : base + "/" + path
        }
        while path.utf8.count > 1, path.utf8.last == UInt8(ascii: "/") { path.removeLast() }
        return path
    }

    /// `<application>/settings.json` in the user's XDG configuration folder; throws `invalidKey`
    /// when `application` cannot be a folder name.
    package static func configurationURL(
        application: String,
        environment: [String: String],
        notUTF8: Set<String> = [],
        passwordDatabaseHome: () -> String? = FileStore.passwordDatabaseHome
    ) throws -> URL {
        try validateApplicationName(application)
        let base = try configurationFolder(
            environment: environment, notUTF8: notUTF8, key: application, passwordDatabaseHome: passwordDatabaseHome)
        return URL(fileURLWithPath: base, isDirectory: true)
            .appendingPathComponent(application, isDirectory: true)
            .appendingPathComponent("settings.json")
    }

    /// The user's XDG configuration folder: `$XDG_CONFIG_HOME` if absolute, else `$HOME/.config`,
    /// else `.config` in the password database's home, never `/`. Throws `dataCorrupted` when the
    /// variable used is in `notUTF8`, `io` when no home is known.
    package static func configurationFolder(
        environment: [String: String], notUTF8: Set<String>, key: String?,
        passwordDatabaseHome: () -> String? = FileStore.passwordDatabaseHome
    ) throws -> String {
        func usable(_ path: String?) -> String? {
            guard var path, path.hasPrefix("/") else { return nil }
            while path.count > 1, path.hasSuffix("/") { path.removeLast() }
            return path == "/" ? nil : path
        }
        func text(_ variable: String) throws -> String? {
            let value = usable(environment[variable])
            guard value == nil || !notUTF8.contains(variable) else {
                throw StorageError(
                    .dataCorrupted, key: key, location: "environment variable \(variable)",
                    message: "the value is not valid UTF-8, so the configuration folder it names cannot be opened")
            }
            return value
        }
        if let xdg = try text("XDG_CONFIG_HOME") {
            return xdg
        } else if let home = try text("HOME") ?? usable(passwordDatabaseHome()) {
            return home + "/.config"
        } else {
            throw StorageError(
                .io, key: key,
                message:
                    "cannot find the configuration folder: XDG_CONFIG_HOME and HOME are not absolute paths and the password database has no home folder"
            )
        }
    }

    /// The settings file `FileStore(application:)` opens: ``containerURL(application:in:)`` for
    /// apps on Apple platforms (on macOS, an app bundle), else `configurationURL` (XDG).
    package static func defaultURL(
        application: String, environment: [String: String], notUTF8: Set<String> = [],
        bundleURL: URL = Bundle.main.bundleURL
    ) throws -> URL {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return try containerURL(application: application)
        #else
        #if os(macOS)
        if isApplicationBundle(bundleURL) { return try containerURL(application: application) }
        #endif
        return try configurationURL(application: application, environment: environment, notUTF8: notUTF8)
        #endif
    }

    /// Whether `bundleURL`, a main bundle's URL, is an application bundle (`Notes.app`), not the
    /// folder of a command-line tool's executable or an app extension (`.appex`).
    package static func isApplicationBundle(_ bundleURL: URL) -> Bool {
        bundleURL.pathExtension.lowercased() == "app"
    }

    /// The container folder an app's settings file goes in: `Library/Application Support`,
    /// except on tvOS, where an app may write only `Library/Caches` (<doc:PlatformNotes>).
    package static var containerDirectory: FileManager.SearchPathDirectory {
        #if os(tvOS)
        .cachesDirectory
        #else
        .applicationSupportDirectory
        #endif
    }

    /// `<application>/settings.json` in the user domain's `directory`, made by the first write; not
    /// for Linux, where Foundation gives the XDG data folder. Throws `invalidKey` or `io`.
    package static func containerURL(
        application: String, in directory: FileManager.SearchPathDirectory = containerDirectory
    ) throws -> URL {
        try validateApplicationName(application)
        guard let folder = FileManager.default.urls(for: directory, in: .userDomainMask).first else {
            throw StorageError(.io, key: application, message: "cannot find the app container's \(directory) folder")
        }
        return
            folder
            .appendingPathComponent(application, isDirectory: true)
            .appendingPathComponent("settings.json")
    }

    /// Throws ``StorageError/Code/invalidKey`` for an application name that cannot be one
    /// folder name.
    private static func validateApplicationName(_ application: String) throws {
        try StorageError.validate(key: application)
        if application == "." || application.contains("/") || application.contains("..") || application.hasPrefix("-") {
            throw StorageError(
                .invalidKey, key: application,
                message: "an application name cannot be '.', contain '/' or '..', or start with '-'"
            )
        }
    }

    /// The home folder of the current user in the password database (`getpwuid_r`), or `nil`.
    package static func passwordDatabaseHome() -> String? {
        var size = 4096
        while size <= 1 << 20 {
            var record = passwd()
            var result: UnsafeMutablePointer<passwd>?
            var buffer = [CChar](repeating: 0, count: size)
            let (code, home) = buffer.withUnsafeMutableBufferPointer { storage -> (Int32, String?) in
                guard let base = storage.baseAddress else { return (EINVAL, nil) }
                let code = getpwuid_r(getuid(), &record, base, storage.count, &result)
                guard code == 0, result != nil, let directory = record.pw_dir else { return (code, nil) }
                return (0, String(cString: directory))
            }
            if code == ERANGE {
                size *= 2
                continue
            }
            return home
        }
        return nil
    }
}
