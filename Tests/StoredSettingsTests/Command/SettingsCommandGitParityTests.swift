import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// `config get --show-origin` and `config unset` behave as `git config` does.
@Suite(.timeLimit(TestScale.hangGuard))
struct SettingsCommandGitParityTests {
    @Test func getWithShowOriginPrintsWhereTheValueComesFromThenTheValue() throws {
        let tool = try ToolStores(environment: ["TOOL_THEME": "light"])
        try tool.file.setValue(.int(50), forKey: "pageSize")
        let fromEnvironment = tool.run("get", "theme", "--show-origin")
        #expect(fromEnvironment.status == 0)
        #expect(fromEnvironment.output == "environment variable TOOL_THEME\tlight\n")
        #expect(tool.run("get", "--show-origin", "pageSize").output == "file \(tool.file.url.path)\t50\n")
        #expect(tool.run("get", "autoReload", "--show-origin").output == "default\tfalse\n")
    }

    @Test func getWithShowOriginStillHidesASecret() throws {
        let tool = try ToolStores(environment: ["TOOL_API_TOKEN": "s3cret"])
        let run = tool.run("get", "apiToken", "--show-origin")
        #expect(run.output == "environment variable TOOL_API_TOKEN\t<redacted>\n")
    }

    @Test func unsetOfAKeyTheFileDoesNotHoldExitsFiveAsGitDoes() throws {
        let tool = try ToolStores()
        try tool.file.setValue(.int(3), forKey: "pageSize")
        #expect(tool.run("unset", "pageSize").status == 0)
        let again = tool.run("unset", "pageSize")
        #expect(again.status == 5)
        #expect(again.status == SettingsCommand.ExitCode.notSet)
        #expect(again.error == "tool config: pageSize is not set in \(tool.file.url.path)\n")
        #expect(try tool.file.reopened().value(forKey: "pageSize") == nil)
    }

    @Test func unsetOfAKeySetOnlyInTheEnvironmentExitsFive() throws {
        let tool = try ToolStores(environment: ["TOOL_PAGE_SIZE": "7"])
        let run = tool.run("unset", "pageSize")
        #expect(run.status == 5)
        #expect(run.error.hasPrefix("tool config: pageSize is not set in "))
    }
}
