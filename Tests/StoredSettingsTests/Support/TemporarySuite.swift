import Foundation
import StoredSettings

/// A `UserDefaults` suite whose domain file lives in a fresh temporary folder, removed with
/// it when released.
///
/// Tests never create suites in the user's preferences (`~/Library/Preferences` on Apple
/// platforms, where `cfprefsd` keeps every suite named by a plain name; `$XDG_CONFIG_HOME` on
/// Linux): an absolute suite name is the path of the domain's property list, minus `.plist`, on
/// both Foundations, so the suite is named by a path in the scratch folder.
final class TemporarySuite: Sendable {
    let store: UserDefaultsStore
    private let folder: ScratchFolder

    /// The suite's name: the domain file's path without `.plist`.
    var name: String { store.suiteName ?? "" }

    init() throws {
        folder = try ScratchFolder()
        store = try UserDefaultsStore(suiteAtPath: folder.url.appendingPathComponent("suite").path)
    }

    deinit {
        store.defaults.removePersistentDomain(forName: name)
    }
}
