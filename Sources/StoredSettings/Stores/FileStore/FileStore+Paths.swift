package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileStore {
    /// The absolute path of the file at `url`, as the kernel will walk it: a relative path is
    /// joined to its base URL's path (else the current folder), and nothing is removed as text
    /// but trailing slashes, as `URL(fileURLWithPath:isDirectory:)`'s `path` removes them.
    ///
    /// `URL.standardizedFileURL` and RFC 3986 resolution drop `link/..` as text, which names
    /// another file when `link` is a symbolic link to a folder elsewhere.
    package static func absolutePath(of url: URL) -> String {
        // For a URL with no base, `path(percentEncoded:)` is `relativePath` at half the cost.
        var path = url.baseURL == nil ? url.path(percentEncoded: false) : url.relativePath
        if !path.hasPrefix("/") {
            let base = url.baseURL?.path ?? FileManager.default.currentDirectoryPath
            path = base.hasSuffix("/") ? base + path : base + "/" + path
        }
        while path.utf8.count > 1, path.utf8.last == UInt8(ascii: "/") { path.removeLast() }
        return path
    }

    /// The settings file of `application`, following the XDG Base Directory rules:
    /// `$XDG_CONFIG_HOME/<application>/settings.json` when `XDG_CONFIG_HOME` is an absolute
    /// path (a relative one is ignored, as the specification says), else
    /// `$HOME/.config/<application>/settings.json` when `HOME` is absolute, else the home
    /// folder from the password database. The filesystem root is never used as either.
    ///
    /// - Parameters:
    ///   - application: The application's name.
    ///   - environment: The environment variables to use (the process's in production).
    ///   - notUTF8: The names of the variables in `environment` whose bytes are not valid
    ///     UTF-8: a path that cannot be spelt is never replaced by another.
    ///   - passwordDatabaseHome: The home folder of the current user's password-database entry.
    /// - Throws: ``StorageError/Code/invalidKey`` for a name that is empty, `.`, contains `/`,
    ///   `..`, NUL or control characters, or starts with `-`; ``StorageError/Code/io`` when
    ///   no home folder is known; ``StorageError/Code/dataCorrupted`` naming `XDG_CONFIG_HOME`
    ///   or `HOME` when the one that would be used is not valid UTF-8.
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

    /// The user's configuration folder by the XDG Base Directory rules, as
    /// ``configurationURL(application:environment:notUTF8:passwordDatabaseHome:)`` finds it:
    /// `$XDG_CONFIG_HOME` when it is an absolute path, else `$HOME/.config`, else the password
    /// database's home folder followed by `.config`. Where Foundation on Linux keeps
    /// UserDefaults suites, too.
    ///
    /// - Parameters:
    ///   - key: The key (or application) the errors name.
    /// - Throws: ``StorageError/Code/dataCorrupted`` naming `XDG_CONFIG_HOME` or `HOME` when
    ///   the one that would be used is not valid UTF-8 (it is in `notUTF8`);
    ///   ``StorageError/Code/io`` when no home folder is known.
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

    /// The settings file `FileStore(application:)` opens on this platform: on iOS, tvOS,
    /// watchOS and visionOS ``containerURL(application:in:)`` (apps write inside their
    /// container there, and `$HOME/.config` is not a place the system backs up or expects); on
    /// macOS the same for an app bundle (``isApplicationBundle(_:)``, sandboxed or not:
    /// `FileManager` answers with the container's folder for a sandboxed app); for command-line
    /// tools on macOS and everything on Linux
    /// ``configurationURL(application:environment:passwordDatabaseHome:)``.
    ///
    /// - Parameters:
    ///   - notUTF8: The names of the variables in `environment` whose bytes are not valid UTF-8.
    ///   - bundleURL: The main bundle's URL (`Bundle.main.bundleURL`), a parameter for tests.
    /// - Throws: What the chosen function throws.
    package static func defaultURL(
        application: String, environment: [String: String], notUTF8: Set<String> = [],
        bundleURL: URL = Bundle.main.bundleURL
    ) throws -> URL {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return try containerURL(application: application)
        #else
        #if os(macOS)
        // An app is told from a tool by its bundle's `.app` extension, as FZSwiftUtils'
        // `Bundle.isApplicationBundle` (Sources/FZSwiftUtils/Extensions/Foundation/Bundle+.swift)
        // tells them on macOS.
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
    /// except on tvOS, where an app cannot create that folder and may write only its caches
    /// (`Library/Caches`, which the system may purge when storage runs low: Apple's App
    /// Programming Guide for tvOS, "Local Storage for Your App Is Limited").
    package static var containerDirectory: FileManager.SearchPathDirectory {
        #if os(tvOS)
        .cachesDirectory
        #else
        .applicationSupportDirectory
        #endif
    }

    /// `<folder>/<application>/settings.json`, the folder being the first of
    /// `FileManager.default.urls(for: directory, in: .userDomainMask)`: for
    /// ``containerDirectory``, the app container's `Library/Application Support` (`Library/Caches`
    /// on tvOS) on Apple platforms (the folder may not exist yet; the first write creates it).
    /// Foundation on Linux answers with the XDG data folder (`$XDG_DATA_HOME`, else
    /// `~/.local/share`), which is why Linux does not use it.
    ///
    /// - Throws: ``StorageError/Code/invalidKey`` for a name that is empty, `.`, contains `/`,
    ///   `..`, NUL or control characters, or starts with `-`; ``StorageError/Code/io`` when
    ///   Foundation knows no such folder.
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
