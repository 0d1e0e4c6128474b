import Foundation
import Testing

/// Inputs an adversarial review of daybook's configuration found mishandled, each in real
/// daybook processes from a fresh `XDG_CONFIG_HOME`.
@Suite(.timeLimit(.hangGuard))
struct DaybookVariableTests {
    @Test func aMisspeltOptionsValueNeverReachesTheMessage() throws {
        let sandbox = try DaybookTests.Sandbox()
        let run = try sandbox.run("--tokn=SEKRIT", "config", "get", "token")
        #expect(run.status == 64)
        #expect(!run.error.contains("SEKRIT"))
        #expect(run.error.contains("--tokn"))
    }

    @Test func theFleetVariableIsNoUnknownVariable() throws {
        let sandbox = try DaybookTests.Sandbox()
        let run = try sandbox.run("--strict", "config", "get", "pageSize", environment: ["DAYBOOK_ETCD": ""])
        #expect(run.error == "")
        #expect(run.status == 0)
        #expect(run.output == "10\n")
    }

    @Test func anUnknownVariablesHintComparesTheWordsAfterThePrefix() throws {
        let sandbox = try DaybookTests.Sandbox()
        let run = try sandbox.run("status", environment: ["DAYBOOK_HOME": "1", "DAYBOOK_PAGESIZE": "3"])
        #expect(
            run.error.contains("DAYBOOK_PAGESIZE: no setting reads this variable (did you mean DAYBOOK_PAGE_SIZE?)"))
        let home = run.error.split(separator: "\n").first { $0.contains("DAYBOOK_HOME") }
        #expect(home.map { !$0.contains("did you mean") } == true)
    }

    @Test func aSecretFileThatCannotBeReadDoesNotStopTheConfigCommand() throws {
        let sandbox = try DaybookTests.Sandbox()
        let missing = sandbox.folder.appendingPathComponent("missing").path
        let set = try sandbox.run("config", "set", "pageSize", "4", environment: ["DAYBOOK_TOKEN_FILE": missing])
        #expect(set.status == 0)
        #expect(set.error.contains("DAYBOOK_TOKEN_FILE"))
        let get = try sandbox.run("config", "get", "pageSize")
        #expect(get.output == "4\n")
        let run = try sandbox.run("status", environment: ["DAYBOOK_TOKEN_FILE": missing])
        #expect(run.status == 65)
    }
}
