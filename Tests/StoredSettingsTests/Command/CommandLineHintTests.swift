import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// A tool's settings with an enum, a Bool and a secret, for the hints of its messages.
struct HintedSettings: SettingsGroup {
    enum Mode: String, Codable, CaseIterable, Sendable, StoredValueConvertible { case fast, safe }

    @Stored("mode", default: .fast) var mode: Mode
    @Stored("pageSize", default: 10) var pageSize: Int
    @Stored("dryRun", default: false) var dryRun: Bool
    @Stored("level", default: 1) var level: UInt8
    @Stored("token", secret: true) var token: String?
}

/// Credentials kept as one secret structure.
struct SecretCredentials: Codable, Equatable, Sendable {
    var user: String
    var password: String
}

extension SecretCredentials: StoredValueConvertible {}

/// A tool with a secret structure.
struct SecretServerSettings: SettingsGroup {
    @Stored("credentials", default: SecretCredentials(user: "", password: ""), secret: true)
    var credentials: SecretCredentials
}

/// Options, variables and file values that do not fit get the hint `config set` gives; a
/// misspelt `--set` key or `config` subcommand gets a did-you-mean; a secret given as an
/// option is warned about.
@Suite(.timeLimit(TestScale.hangGuard))
struct CommandLineHintTests {
    /// The lines a run that stops writes, or the warnings of one that does not.
    private func messages(
        _ arguments: [String], environment: [String: String] = [:], file: TemporaryFileStore
    ) -> String {
        var messages = ""
        do {
            _ = try CommandLineSettings<HintedSettings>(
                toolName: "tool", arguments: arguments, environment: environment, file: file, messages: &messages)
            return messages
        } catch {
            return messages + "\(error)"
        }
    }

    @Test func anOptionOutsideAnEnumsCasesNamesTheCasesAndTheTextGiven() throws {
        let file = try TemporaryFileStore()
        #expect(
            messages(["--mode", "turbo"], file: file)
                == "tool: Setting 'mode' in --mode on the command line: expected Mode (one of: fast, safe), "
                + "found string \"turbo\": the value is not one of its raw values.")
    }

    @Test func aVariableThatIsNoNumberSaysWhatANumberLooksLike() throws {
        let file = try TemporaryFileStore()
        #expect(
            messages([], environment: ["TOOL_PAGE_SIZE": "ten"], file: file)
                == "tool: Setting 'pageSize' in environment variable TOOL_PAGE_SIZE: expected Int (a whole number), "
                + "found string \"ten\".")
    }

    @Test func aFileValueOfTheWrongKindIsReportedWithTheSameHint() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.string("turbo"), forKey: "mode")
        #expect(messages([], file: file) == "")
        let reports = ReportedErrors()
        #expect(reports.capture { HintedSettings(store: file).mode } == .fast)
        #expect(
            reports.errors.map(\.description).contains(
                "Setting 'mode' in \(file.url.path): expected Mode (one of: fast, safe), "
                    + "found string \"turbo\": the value is not one of its raw values."))
    }

    @Test func aNarrowIntegerSaysItsRange() throws {
        let file = try TemporaryFileStore()
        let output = messages(["--level", "300"], file: file)
        #expect(
            output.hasPrefix(
                "tool: Setting 'level' in --level on the command line: expected UInt8 (a whole number from 0 to 255), "
                    + "found string \"300\""), "\(output)")
    }

    @Test func aBooleanHintListsEverySpellingItAccepts() throws {
        let file = try TemporaryFileStore()
        #expect(
            messages(["--dry-run=maybe"], file: file)
                == "tool: Setting 'dryRun' in --dry-run on the command line: expected Bool (true or false; also "
                + "yes/no, on/off, 1/0), found string \"maybe\".")
        #expect(messages(["--dry-run=on"], file: file) == "")
    }

    @Test func aSecretThatDoesNotFitIsNeverEchoed() throws {
        let file = try TemporaryFileStore()
        let output = messages([], environment: ["TOOL_TOKEN": "[1,"], file: file)
        #expect(!output.contains("[1,"))
    }

    @Test func aBooleanWordAfterANegatedFlagIsAMistakeNamingTheFlag() throws {
        let file = try TemporaryFileStore()
        #expect(
            messages(["--no-dry-run", "false"], file: file)
                == "tool: Setting 'dryRun' in --no-dry-run on the command line: --no-dry-run is a flag and takes no "
                + "separate value 'false'; write --dry-run=true or --dry-run=false.")
    }

    @Test func aMisspeltSetKeyGetsADidYouMean() throws {
        let file = try TemporaryFileStore()
        #expect(
            messages(["--set", "pageSise=3"], file: file)
                == "tool: Setting 'pageSise' in --set on the command line: no declared setting uses this key "
                + "(did you mean 'pageSize'?).")
    }

    @Test func aSecretGivenAsAnOptionIsWarnedAboutWithTheWaysToGiveItInstead() throws {
        let file = try TemporaryFileStore()
        #expect(
            messages(["--token", "s3cret"], file: file)
                == "tool: warning: Setting 'token' in --token on the command line: a secret given as an option can "
                + "be read by every user of this machine in the process list (ps); give it in a file named by "
                + "TOOL_TOKEN_FILE, or in TOOL_TOKEN, instead.\n")
        #expect(messages([], environment: ["TOOL_TOKEN": "s3cret"], file: file) == "")
    }

    @Test func aSecretStructureGivenFieldByFieldIsWarnedAboutToo() throws {
        let file = try TemporaryFileStore()
        var messages = ""
        _ = try CommandLineSettings<SecretServerSettings>(
            toolName: "tool", arguments: ["--set", "credentials.password=s3cret"], environment: [:], file: file,
            messages: &messages)
        #expect(
            messages.contains("Setting 'credentials' in --set credentials.password=… on the command line: a secret"))
        #expect(!messages.contains("s3cret"))
    }

    @Test func aMisspeltConfigSubcommandGetsADidYouMean() throws {
        let file = try TemporaryFileStore()
        var output = ""
        var error = ""
        let status = SettingsCommand(HintedSettings(store: file), toolName: "tool").run(
            arguments: ["lst"], output: &output, error: &error)
        #expect(status == .usage)
        #expect(error == "tool config: unknown subcommand 'lst' (did you mean 'list'?). See 'tool config --help'.\n")
    }

    @Test func aFileKeySpellingAFieldWithADotSaysHowTheFileHoldsIt() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.int(1), forKey: "server.tls.enabled")
        var messages = ""
        _ = try CommandLineSettings<ServerSettings>(
            toolName: "tool", arguments: [], environment: [:], file: file, messages: &messages)
        #expect(
            messages
                == "tool: warning: Setting 'server.tls.enabled' in file \(abbreviatingHome(file.url.path)): no declared "
                + "setting uses this key (a file holds the field 'tls.enabled' of 'server' as "
                + "{\"server\": {\"tls\": {\"enabled\": …}}}).\n")
    }
}
