import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// The settings of an imaginary tool, used by the command-line tools tests.
enum ToolKey: String, StorageKey {
    case autoReload, pageSize, theme, lastOpened, tags, apiToken, pin
}

enum ToolTheme: String, CaseIterable, Sendable, StoredValueConvertible {
    case system, light, dark
}

struct ToolSettings: SettingsGroup {
    @Stored(ToolKey.autoReload, default: false, help: "Reload files when they change.")
    var autoReload: Bool
    @Stored(ToolKey.pageSize, default: 20, help: "Entries per page.")
    var pageSize: Int
    @Stored(ToolKey.theme, default: .system)
    var theme: ToolTheme
    @Stored(ToolKey.lastOpened, help: "When the tool was last opened.")
    var lastOpened: Date?
    @Stored(ToolKey.tags, default: [])
    var tags: [String]
    @Stored(ToolKey.apiToken, default: "", help: "Token for the sync service.", secret: true)
    var apiToken: String
    @Stored(ToolKey.pin, secret: true)
    var pin: Int?
}

/// Collects reports made through `StorageErrorReporter` in one test.
final class CapturedReports: Sendable {
    let errors = Lock<[StorageError]>([])

    func capture<R>(_ body: () throws -> R) rethrows -> R {
        try StorageErrorReporter.withHandler(
            { [errors] error in errors.withLock { $0.append(error) } }, operation: body)
    }

    var all: [StorageError] { errors.withLock { $0 } }
}

/// A fixed date with a fraction of a second.
let sampleDate = Date(timeIntervalSinceReferenceDate: 760_000_000.25)

/// Compile-only: every spelling of the help and secret initializers.
struct EverySpellingOfHelpAndSecret: SettingsGroup {
    @Stored(ToolKey.pageSize, default: 1, help: "Help.") var helpOnly: Int
    @Stored(ToolKey.pageSize, default: 1, help: nil) var nilHelp: Int
    @Stored(ToolKey.pageSize, default: 1, help: "Help.", secret: true) var helpAndSecret: Int
    @Stored(ToolKey.pageSize, default: 1, secret: true) var secretOnly: Int
    @Stored(ToolKey.pageSize, default: 1, help: "Help.", store: InMemoryStore()) var helpAndStore: Int
    @Stored(ToolKey.pin, help: "Help.") var optionalHelp: Int?
    @Stored(ToolKey.pin, help: "Help.", secret: true) var optionalHelpAndSecret: Int?
    @Stored(ToolKey.pin, secret: true) var optionalSecret: Int?
    @Stored(ToolKey.pin, secret: false, store: InMemoryStore()) var optionalSecretAndStore: Int?
    @Stored(ToolKey.pageSize, default: 1) var plain: Int
    @Stored(ToolKey.pin) var plainOptional: Int?
}
