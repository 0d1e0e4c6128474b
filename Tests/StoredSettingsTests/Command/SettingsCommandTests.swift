import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// One run of a `SettingsCommand`: its exit status and what it wrote.
struct CommandRun {
    var status: SettingsCommand.ExitCode
    var output: String
    var error: String
}

/// A tool's stores for one test: a fixed environment, the command line, and a file.
struct ToolStores {
    let file: TemporaryFileStore
    let store: LayeredStore
    let settings: ToolSettings

    init(environment: [String: String] = [:], arguments: [String] = []) throws {
        file = try TemporaryFileStore()
        store = LayeredStore(
            [
                EnvironmentStore(prefix: "TOOL", environment: environment),
                CommandLineStore(arguments: arguments, declaredBy: ToolSettings.self),
                file,
            ],
            writingTo: file
        )
        settings = ToolSettings(store: store)
    }

    func run(_ arguments: String...) -> CommandRun {
        var output = ""
        var error = ""
        let status = SettingsCommand(settings, toolName: "tool").run(
            arguments: arguments, output: &output, error: &error)
        return CommandRun(status: status, output: output, error: error)
    }
}

@Suite(.timeLimit(TestScale.hangGuard))
struct SettingsCommandTests {
    @Test func printsExactHelp() throws {
        let tool = try ToolStores()
        let run = tool.run("--help")
        #expect(run.status == 0)
        #expect(run.error == "")
        #expect(
            run.output == """
                OVERVIEW: Show and change the settings of tool.

                USAGE: tool config <subcommand>

                SUBCOMMANDS:
                  list [--show-origin] [--json]            Show every setting, its value and
                                                           where the value comes from.
                  get KEY [--show-origin] [--show-secret]  Print the value of one setting.
                  set KEY VALUE                            Store a value, checked against the
                                                           setting's type.
                  unset KEY                                Remove the stored value, so the
                                                           default applies.
                  reset (KEY... | --all)                   Remove the stored values of the given
                                                           settings, or of all.
                  path                                     Print the path of the settings file.
                  schema [--declared-only] [--draft V]     Print a JSON Schema of the settings
                                                           file, for editors.
                  check [FILE]                             Check a settings file as the tool
                                                           reads it, writing nothing.

                SETTINGS:
                  autoReload  Bool       --[no-]auto-reload         Reload files when they
                                                                    change.
                  pageSize    Int        --page-size N              Entries per page.
                  theme       ToolTheme  --theme system|light|dark
                  lastOpened  Date?      --last-opened DATE         When the tool was last
                                                                    opened.
                  tags        [String]   --tags TEXT...
                  apiToken    String     --api-token TEXT           Token for the sync service.
                  pin         Int?       --pin N

                See 'tool config <subcommand> --help' for one subcommand.

                EXIT STATUS: 0 success, 1 no such setting, 64 usage error, 65 invalid value,
                66 no such file, 74 the settings could not be read or written.

                """)
        #expect(run.output.split(separator: "\n").allSatisfy { $0.count <= 80 })
        #expect(tool.run("help").output == run.output)
        #expect(tool.run("-h").output == run.output)
    }

    @Test func withoutASubcommandPrintsHelpToStandardErrorAsUsageError() throws {
        let run = try ToolStores().run()
        #expect(run.status == 64)
        #expect(run.output == "")
        #expect(run.error.hasPrefix("OVERVIEW: Show and change the settings of tool."))
    }

    @Test func listsAlignedTable() throws {
        let tool = try ToolStores()
        try tool.file.setValue(.int(50), forKey: "pageSize")
        let run = tool.run("list")
        #expect(run.status == 0)
        #expect(run.error == "")
        #expect(
            run.output == """
                KEY         TYPE       VALUE
                autoReload  Bool       false
                pageSize    Int        50
                theme       ToolTheme  system
                lastOpened  Date?      (not set)
                tags        [String]   []
                apiToken    String     <redacted>
                pin         Int?       (not set)

                """)
    }

    @Test func listsOriginsOfEveryLayer() throws {
        let tool = try ToolStores(
            environment: ["TOOL_AUTO_RELOAD": "yes"],
            arguments: ["--theme", "dark", "--set", "tags=[\"a\"]"]
        )
        try tool.file.setValue(.int(50), forKey: "pageSize")
        try tool.file.setValue(.date(sampleDate), forKey: "lastOpened")
        let run = tool.run("list", "--show-origin")
        #expect(run.status == 0)
        let path = tool.file.url.path
        #expect(
            run.output == """
                KEY         TYPE       VALUE                    ORIGIN
                autoReload  Bool       true                     environment variable TOOL_AUTO_RELOAD
                pageSize    Int        50                       file \(path)
                theme       ToolTheme  dark                     --theme on the command line
                lastOpened  Date?      2025-01-31T07:06:40.25Z  file \(path)
                tags        [String]   ["a"]                    --set tags=… on the command line
                apiToken    String     <redacted>               default
                pin         Int?       (not set)                default

                """)
    }

    @Test func listsJSONForScripts() throws {
        let tool = try ToolStores(environment: ["TOOL_PAGE_SIZE": "7"])
        try tool.file.setValue(.bool(true), forKey: "autoReload")
        let run = tool.run("list", "--json")
        #expect(run.status == 0)
        let items = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
        #expect(
            items.map { $0["key"] as? String } == [
                "autoReload", "pageSize", "theme", "lastOpened", "tags", "apiToken", "pin",
            ])
        #expect(items[0]["value"] as? Bool == true)
        #expect(items[0]["default"] as? Bool == false)
        #expect(items[0]["help"] as? String == "Reload files when they change.")
        #expect(items[0]["origin"] as? String == "file " + tool.file.url.path)
        #expect(items[1]["value"] as? Int == 7)
        #expect(items[1]["origin"] as? String == "environment variable TOOL_PAGE_SIZE")
        #expect(items[3]["value"] == nil)
        #expect(items[3]["type"] as? String == "Date?")
        #expect(items[5]["value"] as? String == "<redacted>")
        #expect(items[5]["secret"] as? Bool == true)
        #expect(run.output.hasPrefix("[\n  {\n    \"default\": false,\n"))
    }

    @Test func getPrintsOneValue() throws {
        let tool = try ToolStores(environment: ["TOOL_THEME": "light"])
        #expect(tool.run("get", "theme").output == "light\n")
        #expect(tool.run("get", "pageSize").output == "20\n")
        let unset = tool.run("get", "lastOpened")
        #expect(unset.status == 1)
        #expect(unset.output == "")
        #expect(unset.error == "tool config: lastOpened is not set\n")
    }

    @Test func setStoresAValueCheckedAgainstTheDeclaredType() throws {
        let tool = try ToolStores()
        let run = tool.run("set", "pageSize", "35")
        #expect(run.status == 0)
        #expect(run.output == "" && run.error == "")
        #expect(try tool.file.reopened().value(forKey: "pageSize") == .int(35))
        #expect(tool.run("set", "autoReload", "yes").status == 0)
        #expect(tool.file.value(forKey: "autoReload") == .bool(true))
        #expect(tool.run("set", "lastOpened", "2025-01-31T07:06:40.25Z").status == 0)
        #expect(tool.settings.lastOpened == sampleDate)
        #expect(tool.run("set", "tags", #"["x", "y"]"#).status == 0)
        #expect(tool.settings.tags == ["x", "y"])
        #expect(tool.run("set", "theme", "dark").status == 0)
        #expect(tool.settings.theme == .dark)
    }

    struct InvalidValue: CustomTestStringConvertible, Sendable {
        var key: String
        var text: String
        var message: String
        var testDescription: String { "\(key) \(text)" }
    }

    @Test(arguments: [
        InvalidValue(
            key: "autoReload", text: "maybe",
            message: #"autoReload expects a Bool (true or false; also yes/no, on/off, 1/0), got "maybe""#),
        InvalidValue(key: "pageSize", text: "12.5", message: #"pageSize expects an Int (a whole number), got "12.5""#),
        InvalidValue(
            key: "theme", text: "blue", message: #"theme expects a ToolTheme (one of: system, light, dark), got "blue""#
        ),
        InvalidValue(
            key: "lastOpened", text: "yesterday",
            message: #"lastOpened expects a Date (an ISO 8601 date such as 2025-01-31T09:30:00Z), got "yesterday""#),
        InvalidValue(
            key: "tags", text: "[1, 2]",
            message: #"tags expects a [String] (a JSON array), got "[1, 2]": at '0': expected String, found int"#),
        InvalidValue(key: "pin", text: "abcd", message: #"pin expects an Int (a whole number), got <redacted>"#),
    ])
    func setRejectsAValueThatDoesNotFitAndWritesNothing(_ invalid: InvalidValue) throws {
        let tool = try ToolStores()
        try tool.file.setValue(.string("kept"), forKey: "unrelated")
        let before = try Data(contentsOf: tool.file.url)
        let run = tool.run("set", invalid.key, invalid.text)
        #expect(run.status == 65)
        #expect(run.output == "")
        #expect(run.error == "tool config: \(invalid.message)\n")
        #expect(try Data(contentsOf: tool.file.url) == before)
        #expect(tool.file.value(forKey: invalid.key) == nil)
    }

    @Test func setNotesWhenAHigherLayerStillOverrides() throws {
        let tool = try ToolStores(environment: ["TOOL_PAGE_SIZE": "5"])
        let run = tool.run("set", "pageSize", "9")
        #expect(run.status == 0)
        #expect(run.error == "tool config: note: pageSize is overridden by environment variable TOOL_PAGE_SIZE\n")
        #expect(tool.file.value(forKey: "pageSize") == .int(9))
        #expect(tool.settings.pageSize == 5)
    }

    @Test func unsetAndResetRemoveStoredValues() throws {
        let tool = try ToolStores()
        try tool.file.setValue(.int(3), forKey: "pageSize")
        try tool.file.setValue(.string("dark"), forKey: "theme")
        try tool.file.setValue(.bool(true), forKey: "autoReload")
        try tool.file.setValue(.string("kept"), forKey: "unrelated")
        #expect(tool.run("unset", "pageSize").status == 0)
        #expect(tool.file.value(forKey: "pageSize") == nil)
        #expect(tool.run("reset", "theme").status == 0)
        #expect(tool.file.value(forKey: "theme") == nil)
        #expect(tool.run("reset", "--all").status == 0)
        #expect(try tool.file.reopened().keys() == ["unrelated"])
    }

    @Test func pathPrintsTheWritableFile() throws {
        let tool = try ToolStores()
        let run = tool.run("path")
        #expect(run.status == 0)
        #expect(run.output == tool.file.url.path + "\n")
    }

    struct Misuse: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var status: SettingsCommand.ExitCode
        var error: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    @Test(arguments: [
        Misuse(
            arguments: ["frobnicate"], status: 64,
            error: "tool config: unknown subcommand 'frobnicate'. See 'tool config --help'.\n"),
        Misuse(
            arguments: ["list", "--all"], status: 64,
            error: "tool config: list does not take '--all'. See 'tool config --help'.\n"),
        Misuse(arguments: ["get"], status: 64, error: "tool config: get needs one KEY. See 'tool config --help'.\n"),
        Misuse(
            arguments: ["get", "a", "b"], status: 64,
            error: "tool config: get needs one KEY. See 'tool config --help'.\n"),
        Misuse(
            arguments: ["set", "pageSize"], status: 64,
            error: "tool config: set needs KEY and VALUE. See 'tool config --help'.\n"),
        Misuse(
            arguments: ["unset"], status: 64, error: "tool config: unset needs one KEY. See 'tool config --help'.\n"),
        Misuse(
            arguments: ["reset"], status: 64,
            error: "tool config: reset needs KEY... or --all. See 'tool config --help'.\n"),
        Misuse(
            arguments: ["path", "x"], status: 64,
            error: "tool config: path takes no arguments. See 'tool config --help'.\n"),
        Misuse(
            arguments: ["get", "nope"], status: 1,
            error: "tool config: no setting 'nope'; 'tool config list' shows them all\n"),
        Misuse(
            arguments: ["set", "nope", "1"], status: 1,
            error: "tool config: no setting 'nope'; 'tool config list' shows them all\n"),
        Misuse(
            arguments: ["reset", "theme", "nope"], status: 1,
            error: "tool config: no setting 'nope'; 'tool config list' shows them all\n"),
    ])
    func misuseGetsOneLineAndASysexitsCode(_ misuse: Misuse) throws {
        let tool = try ToolStores()
        try tool.file.setValue(.string("dark"), forKey: "theme")
        var output = ""
        var error = ""
        let status = SettingsCommand(tool.settings, toolName: "tool").run(
            arguments: misuse.arguments, output: &output, error: &error)
        #expect(status == misuse.status)
        #expect(error == misuse.error)
        #expect(output == "")
        #expect(tool.file.value(forKey: "theme") == .string("dark"))
    }

    @Test func aFailedWriteExitsWithIOError() throws {
        let environment = EnvironmentStore(prefix: "TOOL", environment: [:])
        let settings = ToolSettings(store: LayeredStore([environment], writingTo: environment))
        var output = ""
        var error = ""
        let status = SettingsCommand(settings, toolName: "tool").run(
            arguments: ["set", "pageSize", "3"], output: &output, error: &error)
        #expect(status == 74)
        #expect(error.hasPrefix("tool config: Setting 'pageSize' in environment variable TOOL_PAGE_SIZE: "))
    }

    @Test func aMalformedValueIsListedAsInvalidWithAnErrorNamingItsSource() throws {
        let tool = try ToolStores(environment: ["TOOL_PAGE_SIZE": "many"])
        try tool.file.setValue(.int(50), forKey: "pageSize")
        let run = tool.run("list", "--show-origin")
        #expect(run.status == 65)
        #expect(run.output.contains("pageSize    Int        (invalid)   environment variable TOOL_PAGE_SIZE\n"))
        #expect(
            run.error.hasPrefix(
                "tool config: Setting 'pageSize' in environment variable TOOL_PAGE_SIZE: expected Int (a whole number), found string \"many\""
            ))
        let get = tool.run("get", "pageSize")
        #expect(get.status == 65)
        #expect(get.output == "")
    }
}
