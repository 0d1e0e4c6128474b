import Foundation
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// Help from the one-line start (`parseOrExit`, in a child process, since it exits) and from
/// each `config` subcommand.
@Suite(.timeLimit(TestScale.hangGuard))
struct CommandLineHelpTests {
    /// `stored-test-helper parse-or-exit app ARGUMENTS…`.
    static func parseOrExit(_ arguments: String...) async throws -> ProgramRun {
        guard let helper = ChildProcess.helperPath else { throw HelperMissing() }
        return try await ProgramRun.run(helper, ["parse-or-exit", "app"] + arguments)
    }

    @Test(arguments: ["--help", "-h"])
    func theOneLineStartPrintsTheToolsHelpAndExits(_ option: String) async throws {
        let run = try await Self.parseOrExit("--name", "x", option, "rest")
        #expect(run.exitCode == 0)
        #expect(run.errors == "")
        let help = CommandLineSettings<EnvironmentToolHelpSettings>.helpText(
            toolName: "app", overview: "OVERVIEW: A tool for tests.\n\nUSAGE: app [options]")
        #expect(run.output == help)
        #expect(run.output.hasPrefix("OVERVIEW: A tool for tests.\n\nUSAGE: app [options]\n\nSETTINGS:\n"))
        #expect(run.output.contains("--name TEXT"))
    }

    @Test func theOneLineStartGoesOnWithoutHelpAndAfterTheTerminator() async throws {
        let plain = try await Self.parseOrExit("--name", "x", "rest")
        #expect(plain.exitCode == 0)
        #expect(plain.output == "ran rest\n")
        let afterTerminator = try await Self.parseOrExit("--", "--help")
        #expect(afterTerminator.output == "ran -- --help\n")
    }

    @Test func theOneLineStartRunsConfigWithItsOwnHelp() async throws {
        let config = try await Self.parseOrExit("config", "--help")
        #expect(config.exitCode == 0)
        #expect(config.output.hasPrefix("OVERVIEW: Show and change the settings of app.\n"))
        let get = try await Self.parseOrExit("config", "get", "--help")
        #expect(get.exitCode == 0)
        #expect(get.output.hasPrefix("OVERVIEW: Print the value of one setting.\n\nUSAGE: app config get KEY"))
        let value = try await Self.parseOrExit("--name", "given", "config", "get", "name")
        #expect(value.exitCode == 0)
        #expect(value.output == "given\n")
    }

    @Test func eachSubcommandPrintsItsOwnHelp() throws {
        let tool = try ToolStores()
        let get = tool.run("get", "--help")
        #expect(get.status == 0)
        #expect(
            get.output == """
                OVERVIEW: Print the value of one setting.

                USAGE: tool config get KEY [--show-origin] [--show-secret]

                OPTIONS:
                  --show-origin  Print where the value comes from, a tab, then the value.
                  --show-secret  Print a secret's value instead of <redacted>.
                  -h, --help     Show this help.

                """)
        for name in ["list", "set", "unset", "reset", "path", "schema", "check"] {
            let help = tool.run(name, "-h").output
            #expect(help.contains("USAGE: tool config \(name)"), "\(name): \(help)")
            #expect(help != tool.run("--help").output)
        }
        #expect(tool.run("schema", "--help").output.contains("--draft V"))
        // Only right after `set` is `--help` a request: as the value it is text to store.
        #expect(tool.run("set", "--help").output.contains("USAGE: tool config set KEY VALUE"))
    }
}

/// The settings of the `parse-or-exit` helper command, declared as it declares them.
struct EnvironmentToolHelpSettings: SettingsGroup {
    @Stored("name", default: "none") var name: String
    @Stored("theme", default: "light") var theme: String
}
