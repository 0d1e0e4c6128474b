import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// Settings named like the flags of `SettingsCommand` do not swallow them.
@Suite(.timeLimit(TestScale.hangGuard))
struct ReservedOptionTests {
    enum Key: String, StorageKey {
        case json, showOrigin, showSecret, all, help, declaredOnly
        case noAll = "no.all"
    }

    struct FlagNamedSettings: SettingsGroup {
        @Stored(Key.json, default: false) var json: Bool
        @Stored(Key.showOrigin, default: false) var showOrigin: Bool
        @Stored(Key.showSecret, default: "") var showSecret: String
        @Stored(Key.all, default: 0) var all: Int
        @Stored(Key.help, default: false) var help: Bool
        @Stored(Key.declaredOnly, default: false) var declaredOnly: Bool
        @Stored(Key.noAll, default: false) var noAll: Bool
    }

    @Test(arguments: [
        ["--json"], ["--show-origin"], ["--show-secret"], ["--all"], ["--help"], ["--no-json"], ["--no-all"],
        ["--json=true"], ["--show-secret", "x"], ["--all", "3"], ["--declared-only"],
    ])
    func reservedFlagIsLeftForTheTool(arguments: [String]) {
        let store = CommandLineStore(arguments: ["config", "list"] + arguments, declaredBy: FlagNamedSettings.self)
        #expect(store.remainingArguments == ["config", "list"] + arguments)
        #expect(store.keys().isEmpty)
        #expect(store.errors.isEmpty)
    }

    @Test func settingWithAReservedNameIsStillSetWithSet() throws {
        let store = CommandLineStore(
            arguments: ["--set", "json=true", "--set", "all=3"], declaredBy: FlagNamedSettings.self)
        try store.validate()
        let settings = FlagNamedSettings(store: store)
        #expect(settings.json)
        #expect(settings.all == 3)
    }

    /// Runs a tool's `config` subcommand the way a tool mounts it: the command line is read
    /// by a `CommandLineStore` first, and what it leaves goes to `SettingsCommand`.
    func runConfig(_ arguments: [String], file: InMemoryStore) -> (
        status: SettingsCommand.ExitCode, output: String, errors: String
    ) {
        let commandLine = CommandLineStore(arguments: ["config"] + arguments, declaredBy: FlagNamedSettings.self)
        let settings = FlagNamedSettings(store: LayeredStore([commandLine, file], writingTo: file))
        var output = ""
        var errors = ""
        let status = SettingsCommand(settings, toolName: "tool").run(
            arguments: Array(commandLine.remainingArguments.dropFirst()), output: &output, error: &errors
        )
        return (status, output, errors)
    }

    @Test func configListJSONWorksWhenASettingIsNamedJSON() {
        let run = runConfig(["list", "--json", "--show-origin"], file: InMemoryStore())
        #expect(run.status == SettingsCommand.ExitCode.success, "\(run.errors)")
        #expect(run.output.hasPrefix("["), "\(run.output)")
        #expect(run.output.contains("\"origin\""), "\(run.output)")
    }

    @Test func configResetAllWorksWhenASettingIsNamedAll() {
        let file = InMemoryStore(["json": .bool(true), "all": .int(2)])
        let run = runConfig(["reset", "--all"], file: file)
        #expect(run.status == SettingsCommand.ExitCode.success, "\(run.errors)")
        #expect(file.keys().isEmpty)
    }
}
