import Foundation

/// A store that can say, in words, where the value of a key comes from.
///
/// ``LayeredStore`` conforms, as do `EnvironmentStore` and `CommandLineStore` of
/// StoredSettingsCommandLine. The words are what `config list --show-origin` prints and what
/// ``StorageError/path`` holds when a value read through the store does not decode:
///
/// ```swift
/// let environment = EnvironmentStore(prefix: "DAYBOOK", environment: ["DAYBOOK_AUTO_RELOAD": "1"])
/// let origin = environment.origin(forKey: "autoReload")   // "environment variable DAYBOOK_AUTO_RELOAD"
/// ```
///
/// Conform your own backend when one store serves values from several places.
public protocol OriginDescribingStore: Storable {
    /// Where the value of `key` comes from, such as `environment variable APP_AUTO_RELOAD` or
    /// `file ~/.config/app/settings.json`; `nil` when the store holds no value for `key`.
    ///
    /// The words never contain the value itself, which may be a secret.
    func origin(forKey key: String) -> String?
}

extension Storable {
    /// Where the value of `key` comes from in words, for any store: the store's own words when
    /// it describes origins; `file <path>` for a store located at an absolute path; its
    /// location otherwise; `nil` when it holds no value for `key`.
    package func describedOrigin(forKey key: String) -> String? {
        if let describing = self as? any OriginDescribingStore {
            return describing.origin(forKey: key)
        }
        guard value(forKey: key) != nil else { return nil }
        return describedLocation
    }

    /// The store's location in words: `file <path>` (with `~` for the home folder) for a path,
    /// the location itself otherwise, or the store's type name.
    package var describedLocation: String {
        guard let location else { return String(describing: type(of: self)) }
        if location.hasPrefix("/") { return "file " + abbreviatingHome(location) }
        return location
    }
}

/// `path` with the user's home folder written as `~`, as people type it.
package func abbreviatingHome(_ path: String) -> String {
    // The same HOME as the file's path came from (the last of a repeated name, as Foundation).
    guard let home = ProcessEnvironment.variables(named: ["HOME"]).values["HOME"], home.hasPrefix("/"), home != "/"
    else {
        return path
    }
    let folder = home.hasSuffix("/") ? String(home.dropLast()) : home
    if path == folder { return "~" }
    if path.hasPrefix(folder + "/") { return "~" + path.dropFirst(folder.count) }
    return path
}

/// The `update` of a read-only store: runs `body` on `current` and returns its result when it
/// leaves the value as it was (by ``StoredValue/isIdentical(to:)``); throws `refusal` when it
/// changes it, since nothing can be written.
package func readOnlyUpdate<R>(
    _ current: StoredValue?, _ body: (inout StoredValue?) throws -> R, refusal: @autoclosure () -> StorageError
) throws -> R {
    var new = current
    let result = try body(&new)
    guard current.isIdentical(to: new) else { throw refusal() }
    return result
}
