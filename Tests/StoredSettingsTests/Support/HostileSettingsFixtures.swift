import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// The keys of the settings group that the tests of hostile input use.
enum HostileKey: String, StorageKey {
    case title, count, enabled, tags, frame, token
}

/// A Codable structure read from JSON text.
struct HostileFrame: Codable, Equatable, Sendable, StoredValueConvertible {
    var width: Int
    var height: Int
}

/// A group with a free-text setting, a Bool, an Int, a list, a structure and a secret.
struct HostileSettings: SettingsGroup {
    @Stored(HostileKey.title, default: "", help: "A title.")
    var title: String
    @Stored(HostileKey.count, default: 1)
    var count: Int
    @Stored(HostileKey.enabled, default: false)
    var enabled: Bool
    @Stored(HostileKey.tags, default: [])
    var tags: [String]
    @Stored(HostileKey.frame, default: HostileFrame(width: 1, height: 1))
    var frame: HostileFrame
    @Stored(HostileKey.token, default: "", secret: true)
    var token: String
}

/// The stores of a tool built on ``HostileSettings``: environment, command line, a real file.
struct HostileTool {
    let file: TemporaryFileStore
    let store: LayeredStore
    let settings: HostileSettings

    init(environment: [String: String] = [:], arguments: [String] = []) throws {
        file = try TemporaryFileStore()
        store = LayeredStore(
            [
                CommandLineStore(arguments: arguments, declaredBy: HostileSettings.self),
                EnvironmentStore(prefix: "HOSTILE", environment: environment),
                file,
            ],
            writingTo: file
        )
        settings = HostileSettings(store: store)
    }

    /// Runs `config` with `arguments`.
    func run(_ arguments: String...) -> CommandRun {
        var output = ""
        var error = ""
        let status = SettingsCommand(settings, toolName: "hostile").run(
            arguments: arguments, output: &output, error: &error)
        return CommandRun(status: status, output: output, error: error)
    }

    /// The bytes of the settings file, or `nil` when it does not exist.
    var fileBytes: Data? {
        try? Data(contentsOf: file.url)
    }
}
