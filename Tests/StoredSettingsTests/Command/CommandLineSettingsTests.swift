import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

struct EntryPointSettings: SettingsGroup {
    @Stored("wrapColumn", default: 80, help: "Where long lines wrap.")
    var wrapColumn: Int
    @Stored("autoReload", default: false)
    var autoReload: Bool
    @Stored("hosts", default: [])
    var hosts: [String]
    @Stored("launchCount", default: 0)
    var launchCount: Int
}

@Suite(.timeLimit(TestScale.hangGuard))
struct CommandLineSettingsTests {
    /// Reads the settings the way a tool does; the status and what was written.
    private func read(
        _ arguments: [String], environment: [String: String] = [:], file: TemporaryFileStore,
        unknownKeys: CommandLineSettings<EntryPointSettings>.UnknownKeys = .warn
    ) -> (CommandLineSettings<EntryPointSettings>?, SettingsCommand.ExitCode, String) {
        var messages = ""
        do {
            let read = try CommandLineSettings<EntryPointSettings>(
                toolName: "notes", arguments: arguments, environment: environment, file: file,
                unknownKeys: unknownKeys, messages: &messages)
            return (read, .success, messages)
        } catch {
            messages += "\(error)\n"
            return (nil, error.exitCode, messages)
        }
    }

    @Test func aValueThatFitsIsReadAndTheRestOfTheArgumentsAreHandedBack() throws {
        let file = try TemporaryFileStore()
        let (read, status, messages) = read(
            ["--wrap-column", "60", "--hosts", "a", "--hosts", "b", "open", "today.md"],
            environment: ["NOTES_AUTO_RELOAD": "yes"], file: file)
        #expect(status == .success)
        #expect(messages == "")
        #expect(read?.settings.wrapColumn == 60)
        #expect(read?.settings.hosts == ["a", "b"])
        #expect(read?.settings.autoReload == true)
        #expect(read?.arguments == ["open", "today.md"])
        #expect(file.keys().isEmpty)
    }

    @Test func anOptionThatDoesNotReadAsItsTypeExits64NamingKeyTypeAndOption() throws {
        let file = try TemporaryFileStore()
        let (_, status, messages) = read(["--wrap-column", "wide"], file: file)
        #expect(status == 64)
        #expect(
            messages
                == "notes: Setting 'wrapColumn' in --wrap-column on the command line: expected Int (a whole number), found string \"wide\".\n"
        )
        let (_, setStatus, setMessages) = read(["--set", "wrapColumn=wide"], file: file)
        #expect(setStatus == 64)
        #expect(
            setMessages
                == "notes: Setting 'wrapColumn' in --set wrapColumn=… on the command line: expected Int (a whole number), found string \"wide\".\n"
        )
    }

    @Test func anEnvironmentValueThatDoesNotReadAsItsTypeExits65NamingTheVariable() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.int(100), forKey: "wrapColumn")
        let (_, status, messages) = read([], environment: ["NOTES_WRAP_COLUMN": "wide"], file: file)
        #expect(status == 65)
        #expect(
            messages
                == "notes: Setting 'wrapColumn' in environment variable NOTES_WRAP_COLUMN: expected Int (a whole number), found string \"wide\".\n"
        )
    }

    @Test func aBadOptionOverABadVariableIsAUsageError() throws {
        let file = try TemporaryFileStore()
        let (_, status, messages) = read(
            ["--hosts", "a,,b"], environment: ["NOTES_WRAP_COLUMN": "wide"], file: file)
        #expect(status == 64)
        #expect(messages.split(separator: "\n").count == 2)
        #expect(messages.contains("Setting 'hosts' in --hosts on the command line: expected [String]"))
    }

    @Test func aFlagFollowedByABooleanWordExits64WithTheHint() throws {
        let file = try TemporaryFileStore()
        let (_, status, messages) = read(["--auto-reload", "false"], file: file)
        #expect(status == 64)
        #expect(
            messages
                == "notes: Setting 'autoReload' in --auto-reload on the command line: --auto-reload is a flag and takes no separate value 'false'; write --auto-reload=false or --no-auto-reload.\n"
        )
        #expect(read(["--auto-reload=false"], file: file).0?.settings.autoReload == false)
    }

    @Test func aBadFileValueDoesNotStopTheRun() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.string("wide"), forKey: "wrapColumn")
        let (read, status, _) = read([], file: file)
        #expect(status == .success)
        let reports = CapturedReports()
        reports.capture { #expect(read?.settings.wrapColumn == 80) }
        #expect(reports.all.count == 1)
    }

    @Test func aBadOneRunValueDoesNotStopTheConfigSubcommand() throws {
        let file = try TemporaryFileStore()
        let (read, status, _) = read(["--wrap-column", "wide", "config", "list"], file: file)
        #expect(status == .success)
        #expect(read?.arguments == ["config", "list"])
        var output = ""
        var error = ""
        let listed = SettingsCommand(try #require(read).settings, toolName: "notes")
            .run(arguments: ["list"], output: &output, error: &error)
        #expect(listed == 65)
    }

    @Test func anUnknownKeyInTheFileIsAWarningPrintedOnceOrAnErrorWhenRejected() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.int(3), forKey: "wrapColumns")
        let warning =
            "notes: warning: Setting 'wrapColumns' in file \(abbreviatingHome(file.url.path)): no declared setting uses this key (did you mean 'wrapColumn'?).\n"
        let (read, status, messages) = read([], file: file)
        #expect(status == .success)
        #expect(messages == warning)
        #expect(read?.warnings.map(\.code) == [.unknownKey])
        #expect(self.read([], file: file).2 == "")
        var output = ""
        var error = ""
        _ = SettingsCommand(try #require(read).settings, toolName: "notes")
            .run(arguments: ["list"], output: &output, error: &error)
        #expect(error == "")
        let (_, rejected, rejection) = self.read([], file: file, unknownKeys: .reject)
        #expect(rejected == 65)
        #expect(rejection == warning.replacingOccurrences(of: "notes: warning: ", with: "notes: "))
        #expect(file.value(forKey: "wrapColumns") == .int(3))
    }

    @Test func aMisspeltOptionIsAWarningOrAUsageErrorWhenRejected() throws {
        let file = try TemporaryFileStore()
        let (read, status, messages) = read(["--wrap-colum", "60"], file: file)
        #expect(status == .success)
        #expect(read?.arguments == ["--wrap-colum", "60"])
        // Options are the same in every test: the warning may have been printed by another.
        #expect(
            messages == ""
                || messages
                    == "notes: warning: command line: --wrap-colum is not an option of any setting (did you mean '--wrap-column'?).\n"
        )
        let (_, rejected, rejection) = self.read(["--wrap-colum", "60"], file: file, unknownKeys: .reject)
        #expect(rejected == 64)
        #expect(
            rejection
                == "notes: command line: --wrap-colum is not an option of any setting (did you mean '--wrap-column'?).\n"
        )
        #expect(self.read(["--verbose"], file: file).2 == "")
    }

    @Test func oneRunValuesNeverReachTheFile() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.int(1), forKey: "launchCount")
        let (read, _, _) = read(
            ["--set", "launchCount=500", "--hosts", "a"], environment: ["NOTES_WRAP_COLUMN": "70"], file: file)
        let settings = try #require(read).settings
        try settings.$launchCount.update { $0 += 1 }
        settings.hosts.append("b")
        #expect(settings.launchCount == 500)
        #expect(file.value(forKey: "launchCount") == .int(2))
        #expect(file.value(forKey: "hosts") == .array([.string("b")]))
        #expect(Set(file.keys()) == ["launchCount", "hosts"])
    }

    @Test func theDefaultPrefixKeepsLettersAndDigitsInCapitalsAndWritesUnderscoresForTheRest() {
        let expected = [
            "notes": "NOTES", "my-notes": "MY_NOTES", "Notes2": "NOTES2", "a.b c": "A_B_C", "tool\t": "TOOL_",
            "a\r\nb": "A_B", "straße": "STRASSE", "café": "CAF_", "": "",
        ]
        for (toolName, prefix) in expected {
            #expect(CommandLineSettings<EntryPointSettings>.defaultPrefix(for: toolName) == prefix, "\(toolName)")
        }
    }

    @Test func theDefaultPrefixIsTheToolNameInCapitals() throws {
        let file = try TemporaryFileStore()
        var messages = ""
        let read = try CommandLineSettings<EntryPointSettings>(
            toolName: "my-notes", arguments: [], environment: ["MY_NOTES_WRAP_COLUMN": "50"], file: file,
            messages: &messages)
        #expect(read.settings.wrapColumn == 50)
    }
}

@Suite(.timeLimit(TestScale.hangGuard))
struct UnknownKeyWarningTests {
    @Test func theDeclaredLayeredStoreReportsAnUnknownFileKeyOncePerProcess() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.int(3), forKey: "launchCont")
        try file.setValue(.int(3), forKey: "somethingElse")
        let reports = CapturedReports()
        reports.capture {
            _ = LayeredStore([file], writingTo: file, declaredBy: EntryPointSettings.self)
            _ = LayeredStore([file], writingTo: file, declaredBy: EntryPointSettings.self)
        }
        let location = abbreviatingHome(file.url.path)
        #expect(
            reports.all.map(\.description) == [
                "Setting 'launchCont' in file \(location): no declared setting uses this key (did you mean 'launchCount'?).",
                "Setting 'somethingElse' in file \(location): no declared setting uses this key.",
            ])
    }

    @Test func reservedKeysAndOneRunLayersAreNotReported() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.int(3), forKey: "wrapColumn")
        let commandLine = CommandLineStore(arguments: ["--set", "wrapColumn=4"], declaredBy: EntryPointSettings.self)
        let store = LayeredStore(
            [commandLine, EnvironmentStore(prefix: "NOTES", environment: ["NOTES_OTHER": "1"]), file],
            writingTo: file, declaredBy: EntryPointSettings.self)
        #expect(store.warnings.isEmpty)
        #expect(LayeredStore([file], writingTo: file).warnings.isEmpty)
    }

    @Test func configListWarnsOfUnknownKeysOnceWithTheStatusUnchanged() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.int(3), forKey: "hostz")
        let settings = EntryPointSettings(store: LayeredStore([file], writingTo: file))
        var output = ""
        var error = ""
        let status = SettingsCommand(settings, toolName: "notes").run(
            arguments: ["list"], output: &output, error: &error)
        #expect(status == .success)
        #expect(
            error
                == "notes config: warning: Setting 'hostz' in file \(abbreviatingHome(file.url.path)): no declared setting uses this key (did you mean 'hosts'?).\n"
        )
        error = ""
        _ = SettingsCommand(settings, toolName: "notes").run(arguments: ["list"], output: &output, error: &error)
        #expect(error == "")
    }
}
