import Foundation
import StoredSettings
import StoredSettingsCommandLine

/// The UserDefaults suites of this user, found where Foundation keeps them.
enum Domains {
    /// The folder whose `.plist` files are the suites: `~/Library/Preferences` on Apple
    /// platforms; on Linux, where swift-corelibs-foundation writes a suite to
    /// `$XDG_CONFIG_HOME/<suite>.plist`, `$XDG_CONFIG_HOME` (an absolute path), else
    /// `$HOME/.config` (``FileStore/configurationFolder(environment:notUTF8:key:passwordDatabaseHome:)``).
    ///
    /// - Throws: On Linux, ``StorageError/Code/dataCorrupted`` (65) naming `XDG_CONFIG_HOME` or
    ///   `HOME` when the one used is this process's and its bytes are not UTF-8: the text
    ///   `environment` holds for it, with U+FFFD, names another folder.
    static func folder(environment: [String: String]) throws -> URL {
        #if !canImport(Darwin)
        // A test's own variables are taken as given.
        let process = ProcessEnvironment.variables(named: ["XDG_CONFIG_HOME", "HOME"])
        let notUTF8 = process.notUTF8.filter { environment[$0] == process.values[$0] }
        return URL(
            fileURLWithPath: try FileStore.configurationFolder(environment: environment, notUTF8: notUTF8, key: nil),
            isDirectory: true)
        #else
        let home: URL
        if let path = environment["HOME"], path.hasPrefix("/") {
            home = URL(fileURLWithPath: path, isDirectory: true)
        } else {
            // `NSHomeDirectory()` exists on every platform (`homeDirectoryForCurrentUser` is
            // macOS-only): the home folder, or an app's container on iOS, tvOS, watchOS, visionOS.
            home = URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
        }
        return home.appendingPathComponent("Library/Preferences", isDirectory: true)
        #endif
    }

    /// The suite names, sorted: the names of the `.plist` files in ``folder(environment:)``
    /// without the extension. A missing folder has none.
    ///
    /// - Throws: ``CommandFailure`` (74) when the folder exists but cannot be listed.
    static func list(environment: [String: String]) throws -> [String] {
        let folder = try folder(environment: environment)
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) { return [] }
            throw CommandFailure(
                .ioError, "stored: \(folder.path): cannot list the folder: \(StorageError.readableText(of: error)).")
        }
        return
            names
            .filter { $0.hasSuffix(".plist") && !$0.hasPrefix(".") && $0.count > ".plist".count }
            .filter { name in
                var isDirectory: ObjCBool = false
                let exists = FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent(name).path, isDirectory: &isDirectory)
                return exists && !isDirectory.boolValue
            }
            .map { String($0.dropLast(".plist".count)) }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }
}
