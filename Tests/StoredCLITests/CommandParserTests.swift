import StoredCLI
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// One spelling of the command line and what it parses to.
struct ParseCase: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var command: Command

    init(_ arguments: String..., is command: Command) {
        self.arguments = arguments
        self.command = command
    }

    var testDescription: String { arguments.joined(separator: " ") }
}

/// One spelling that is a usage error, and the line it reports.
struct UsageCase: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var message: String

    init(_ arguments: String..., says message: String) {
        self.arguments = arguments
        self.message = message
    }

    var testDescription: String { arguments.isEmpty ? "(no arguments)" : arguments.joined(separator: " ") }
}

@Suite(.timeLimit(.hangGuard))
struct CommandParserTests {
    static let validCases: [ParseCase] = [
        ParseCase("read", "demo.json", is: .read(.file("demo.json"), key: nil)),
        ParseCase("read", "./demo.json", "autoReload", is: .read(.file("./demo.json"), key: "autoReload")),
        ParseCase("read", "Settings.PLIST", "a.b", is: .read(.file("Settings.PLIST"), key: "a.b")),
        ParseCase("read", "--domain", "com.example.app", is: .read(.domain("com.example.app"), key: nil)),
        ParseCase("read", "--domain=com.example.app", "k", is: .read(.domain("com.example.app"), key: "k")),
        ParseCase(
            "write", "d.json", "k", "text", is: .write(.file("d.json"), key: "k", value: ValueArgument(.string, "text"))
        ),
        ParseCase(
            "write", "d.json", "k", "-5", is: .write(.file("d.json"), key: "k", value: ValueArgument(.string, "-5"))),
        ParseCase(
            "write", "d.json", "k", "-bool", "true",
            is: .write(.file("d.json"), key: "k", value: ValueArgument(.bool, "true"))),
        ParseCase(
            "write", "d.json", "k", "-int", "-5",
            is: .write(.file("d.json"), key: "k", value: ValueArgument(.int, "-5"))),
        ParseCase(
            "write", "d.json", "k", "-float", "0.5",
            is: .write(.file("d.json"), key: "k", value: ValueArgument(.float, "0.5"))),
        ParseCase(
            "write", "d.json", "k", "-string", "-int",
            is: .write(.file("d.json"), key: "k", value: ValueArgument(.string, "-int"))),
        ParseCase(
            "write", "d.json", "k", "-date", "2026-03-01T09:30:00Z",
            is: .write(.file("d.json"), key: "k", value: ValueArgument(.date, "2026-03-01T09:30:00Z"))),
        ParseCase(
            "write", "d.json", "k", "-data", "00ff",
            is: .write(.file("d.json"), key: "k", value: ValueArgument(.data, "00ff"))),
        ParseCase(
            "write", "d.json", "k", "-json", "-",
            is: .write(.file("d.json"), key: "k", value: ValueArgument(.json, "-"))),
        ParseCase(
            "write", "--domain", "s", "key with spaces", "v",
            is: .write(.domain("s"), key: "key with spaces", value: ValueArgument(.string, "v"))),
        ParseCase("delete", "d.json", is: .delete(.file("d.json"), key: nil)),
        ParseCase("delete", "d.json", "k", is: .delete(.file("d.json"), key: "k")),
        ParseCase("keys", "--domain", "s", is: .keys(.domain("s"))),
        ParseCase("export", "d.json", is: .export(.file("d.json"), format: .json)),
        ParseCase("export", "d.json", "--format", "plist", is: .export(.file("d.json"), format: .plist)),
        ParseCase("export", "--format=json", "d.plist", is: .export(.file("d.plist"), format: .json)),
        ParseCase("import", "d.json", "backup.plist", is: .import(.file("d.json"), file: "backup.plist")),
        ParseCase("import", "d.json", "-", is: .import(.file("d.json"), file: "-")),
        ParseCase("domains", is: .domains),
        ParseCase("help", is: .help(nil)),
        ParseCase("--help", is: .help(nil)),
        ParseCase("-h", is: .help(nil)),
        ParseCase("help", "write", is: .help(.write)),
        ParseCase("write", "--help", is: .help(.write)),
        ParseCase("read", "d.json", "-h", is: .help(.read)),
        ParseCase("import", "--help", is: .help(.import)),
    ]

    @Test(arguments: validCases)
    func parsesEverySpelling(_ testCase: ParseCase) throws {
        #expect(try CommandParser.parse(testCase.arguments) == testCase.command)
    }

    static let usageCases: [UsageCase] = [
        UsageCase(says: "missing command. See 'stored help'."),
        UsageCase("frob", says: "unknown command 'frob'. See 'stored help'."),
        UsageCase("--frob", says: "unknown option '--frob'. See 'stored help'."),
        UsageCase("help", "frob", says: "unknown command 'frob'. See 'stored help'."),
        UsageCase("help", "read", "write", says: "unexpected argument 'write'. See 'stored help help'."),
        UsageCase(
            "read", says: "read needs a TARGET: a .json or .plist path, or --domain NAME. See 'stored help read'."),
        UsageCase(
            "read", "settings.txt",
            says:
                "'settings.txt' is not a TARGET: give a path ending in .json or .plist, or --domain NAME. See 'stored help read'."
        ),
        UsageCase("read", "--domain", says: "--domain needs a NAME. See 'stored help read'."),
        UsageCase("read", "--domain=", says: "--domain needs a NAME. See 'stored help read'."),
        UsageCase("read", "--file", "d.json", says: "unknown option '--file'. See 'stored help read'."),
        UsageCase("read", "d.json", "a", "b", says: "unexpected argument 'b'. See 'stored help read'."),
        UsageCase("read", "d.json", "", says: "KEY is not valid: the key is empty. See 'stored help read'."),
        UsageCase("write", "d.json", says: "write needs a KEY. See 'stored help write'."),
        UsageCase("write", "d.json", "k", says: "write needs a VALUE after the key. See 'stored help write'."),
        UsageCase("write", "d.json", "k", "-int", says: "write needs a VALUE after -int. See 'stored help write'."),
        UsageCase(
            "write", "d.json", "k", "-integer", "5",
            says:
                "unknown TYPE '-integer': use -bool, -int, -float, -string, -date, -data or -json. See 'stored help write'."
        ),
        UsageCase("write", "d.json", "k", "a", "b", says: "unexpected argument 'b'. See 'stored help write'."),
        UsageCase("write", "d.json", "k", "-int", "1", "2", says: "unexpected argument '2'. See 'stored help write'."),
        UsageCase(
            "write", "d.json", "a\u{7}b", "v",
            says: "KEY is not valid: the key contains the control character U+0007. See 'stored help write'."),
        UsageCase("delete", "d.json", "a", "b", says: "unexpected argument 'b'. See 'stored help delete'."),
        UsageCase("keys", "d.json", "k", says: "unexpected argument 'k'. See 'stored help keys'."),
        UsageCase("export", "d.json", "--format", says: "--format needs json or plist. See 'stored help export'."),
        UsageCase(
            "export", "d.json", "--format", "yaml",
            says: "unknown format 'yaml': use json or plist. See 'stored help export'."),
        UsageCase("import", "d.json", says: "import needs a FILE to read. See 'stored help import'."),
        UsageCase("domains", "extra", says: "unexpected argument 'extra'. See 'stored help domains'."),
    ]

    @Test(arguments: usageCases)
    func rejectsBadSpellingsWithOneLine(_ testCase: UsageCase) {
        #expect(throws: UsageError.self) { try CommandParser.parse(testCase.arguments) }
        do {
            _ = try CommandParser.parse(testCase.arguments)
        } catch {
            #expect(error.description == testCase.message)
        }
        let run = stored(arguments: testCase.arguments)
        expectFailure(run, .usage, line: "stored: " + testCase.message)
    }
}
