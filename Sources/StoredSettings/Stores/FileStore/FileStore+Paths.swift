import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileStore {
    /// The settings file of `application`, following the XDG Base Directory rules:
    /// `$XDG_CONFIG_HOME/<application>/settings.json` when `XDG_CONFIG_HOME` is an absolute
    /// path (a relative one is ignored, as the specification says), else
    /// `$HOME/.config/<application>/settings.json` when `HOME` is absolute, else the home
    /// folder from the password database. The filesystem root is never used as either.
    ///
    /// - Parameters:
    ///   - application: The application's name.
    ///   - environment: The environment variables to use (the process's in production).
    ///   - passwordDatabaseHome: The home folder of the current user's password-database entry.
    /// - Throws: ``StorageError/Code/invalidKey`` for a name that is empty, `.`, contains `/`,
    ///   `..`, NUL or control characters, or starts with `-`; ``StorageError/Code/io`` when
    ///   no home folder is known.
    package static func configurationURL(
        application: String,
        environment: [String: String],
        passwordDatabaseHome: () -> String? = FileStore.passwordDatabaseHome
    ) throws -> URL {
        try StorageError.validate(key: application)
        if application == "." || application.contains("/") || application.contains("..") || application.hasPrefix("-") {
            throw StorageError(
                .invalidKey, key: application,
                message: "an application name cannot be '.', contain '/' or '..', or start with '-'"
            )
        }
        func usable(_ path: String?) -> String? {
            guard var path, path.hasPrefix("/") else { return nil }
            while path.count > 1, path.hasSuffix("/") { path.removeLast() }
            return path == "/" ? nil : path
        }
        let base: String
        if let xdg = usable(environment["XDG_CONFIG_HOME"]) {
            base = xdg
        } else if let home = usable(environment["HOME"]) ?? usable(passwordDatabaseHome()) {
            base = home + "/.config"
        } else {
            throw StorageError(
                .io, key: application,
                message: "cannot find the configuration folder: XDG_CONFIG_HOME and HOME are not absolute paths and the password database has no home folder"
            )
        }
        return URL(fileURLWithPath: base, isDirectory: true)
            .appendingPathComponent(application, isDirectory: true)
            .appendingPathComponent("settings.json")
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
