import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

enum HelpMode: String, CaseIterable, Sendable, StoredValueConvertible {
    case fast, safe
}

struct HelpLayout: Codable, Equatable, Sendable, StoredValueConvertible {
    var indent: Int
    var wrapColumn: Int
}

/// One setting of each shape the help describes.
struct HelpSettings: SettingsGroup {
    @Stored("dryRun", default: false, help: "Print what would be done, and do nothing.")
    var dryRun: Bool
    @Stored("jobs", default: 4, help: "How many jobs run at once.")
    var jobs: Int
    @Stored("mode", default: .safe, help: "How careful to be.")
    var mode: HelpMode
    @Stored("hosts", default: ["localhost"], help: "Hosts to deploy to.")
    var hosts: [String]
    @Stored("password", default: "hunter2", help: "Password of the deploy account.", secret: true)
    var password: String
    @Stored("layout", default: HelpLayout(indent: 2, wrapColumn: 72), help: "Indent and wrap column of the report.")
    var layout: HelpLayout
    @Stored("since", help: "Deploy only commits after this date.")
    var since: Date?
    @Stored("all", default: false, help: "Deploy every target.")
    var all: Bool
}

/// Long names and long help, which must still wrap inside 80 columns.
struct WideHelpSettings: SettingsGroup {
    @Stored(
        "maximumNumberOfConcurrentConnections", default: 8,
        help: "How many connections to the deploy servers may be open at the same time, across every target.")
    var connections: Int
    @Stored("notificationEmailAddresses", default: [], help: "Who hears about each deploy, and whether it worked.")
    var addresses: [String]
}

struct SettingsHelpTests {
    @Test func helpListsEachSettingsOptionVariableTypeAndDefault() {
        let text = CommandLineSettings<HelpSettings>.helpText(
            toolName: "mytool", overview: "OVERVIEW: Deploys things.\n\nUSAGE: mytool [options] <target>\n")
        #expect(
            text == """
                OVERVIEW: Deploys things.

                USAGE: mytool [options] <target>

                SETTINGS:
                  --set KEY=VALUE         Any setting, by its key.
                  --[no-]dry-run          Print what would be done, and do nothing.
                                          Bool; default: false
                                          Environment: MYTOOL_DRY_RUN
                  --jobs N                How many jobs run at once.
                                          Int (a whole number); default: 4
                                          Environment: MYTOOL_JOBS
                  --mode fast|safe        How careful to be.
                                          HelpMode (one of: fast, safe); default: safe
                                          Environment: MYTOOL_MODE
                  --hosts TEXT...         Hosts to deploy to.
                                          [String] (items separated by commas, or the option
                                          repeated); default: ["localhost"]
                                          Environment: MYTOOL_HOSTS
                  --password TEXT         Password of the deploy account.
                                          String; secret, its value is never shown
                                          Environment: MYTOOL_PASSWORD, or MYTOOL_PASSWORD_FILE
                                          naming a file that holds it
                  --layout JSON           Indent and wrap column of the report.
                                          HelpLayout (a JSON object); default:
                                          {"indent":2,"wrapColumn":72}
                                          Environment: MYTOOL_LAYOUT
                  --layout.indent N       One field of layout; the others stay.
                                          Environment: MYTOOL_LAYOUT_INDENT
                  --layout.wrap-column N  One field of layout; the others stay.
                                          Environment: MYTOOL_LAYOUT_WRAP_COLUMN
                  --since DATE            Deploy only commits after this date.
                                          Date? (an ISO 8601 date such as 2025-01-31T09:30:00Z)
                                          Environment: MYTOOL_SINCE
                  --set all=true|false    Deploy every target.
                                          Bool (true or false; also yes/no, on/off, 1/0);
                                          default: false
                                          Environment: MYTOOL_ALL

                Options are for this run only; they win over environment variables, which win
                over the settings file.

                """)
    }

    @Test func helpUsesTheGivenPrefixAndWidth() {
        let text = CommandLineSettings<HelpSettings>.helpText(
            toolName: "mytool", environmentPrefix: "DEPLOY", overview: "", width: 60)
        #expect(text.hasPrefix("SETTINGS:\n"))
        #expect(text.contains("Environment: DEPLOY_JOBS\n"))
        #expect(!text.contains("MYTOOL_"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 60 })
    }

    @Test(arguments: [HelpSettings.self, WideHelpSettings.self] as [any SettingsGroup.Type])
    func everyHelpLineFitsEightyColumns(_ group: any SettingsGroup.Type) {
        func help<Group: SettingsGroup>(_: Group.Type) -> String {
            CommandLineSettings<Group>.helpText(toolName: "mytool", overview: "OVERVIEW: Deploys things.")
        }
        let lines = help(group).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 5)
        for line in lines {
            #expect(line.count <= 80, "\(line)")
            #expect(line.last != " ", "\(line)")
        }
    }

    @Test func aSecretsDefaultAndValueAreNeverPrinted() throws {
        let text = CommandLineSettings<HelpSettings>.helpText(toolName: "mytool", overview: "")
        #expect(!text.contains("hunter2"))
        #expect(text.contains("secret, its value is never shown"))
    }

    @Test(arguments: [
        (["--help"], true), (["-h"], true), (["deploy", "--help"], true), (["--jobs", "2", "-h", "x"], true),
        (["deploy"], false), (["--", "--help"], false), (["deploy", "--", "-h"], false), (["--helpful"], false),
    ])
    func helpIsRequestedByDashHOrDashDashHelpBeforeADoubleDash(_ arguments: [String], _ requested: Bool) throws {
        var messages = ""
        let read = try CommandLineSettings<HelpSettings>(
            toolName: "mytool", arguments: arguments, environment: [:], file: InMemoryStore(), messages: &messages)
        #expect(read.helpRequested == requested)
        #expect(messages == "")
    }
}
