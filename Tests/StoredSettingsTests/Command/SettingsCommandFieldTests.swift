import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// A server's address and TLS switch: a structure with a structure inside.
struct FieldServer: Codable, Equatable, Sendable {
    var host: String
    var port: Int
    var tls: FieldTLS
}

extension FieldServer: StoredValueConvertible {}

/// Whether TLS is on.
struct FieldTLS: Codable, Equatable, Sendable {
    var enabled: Bool
}

/// A tool's settings with a nested structure, for `config set` of one field.
struct ServerSettings: SettingsGroup {
    @Stored("server", default: FieldServer(host: "localhost", port: 80, tls: FieldTLS(enabled: false)))
    var server: FieldServer
    @Stored("pageSize", default: 10) var pageSize: Int
}

/// `config set server.port 1` sets one field, as `--server.port 1` and `TOOL_SERVER_PORT` do
/// for one run, keeping the other fields of the file's value.
@Suite(.timeLimit(TestScale.hangGuard))
struct SettingsCommandFieldTests {
    private func run(_ file: TemporaryFileStore, _ arguments: String...) -> CommandRun {
        var output = ""
        var error = ""
        let status = SettingsCommand(ServerSettings(store: file), toolName: "tool").run(
            arguments: arguments, output: &output, error: &error)
        return CommandRun(status: status, output: output, error: error)
    }

    @Test func settingAFieldKeepsTheOtherFieldsOfTheStoredValue() throws {
        let file = try TemporaryFileStore()
        #expect(run(file, "set", "server.host", "example.org").status == 0)
        let port = run(file, "set", "server.port", "1")
        #expect(port.status == 0, "\(port.error)")
        #expect(run(file, "set", "server.tls.enabled", "true").status == 0)
        #expect(
            ServerSettings(store: file).server
                == FieldServer(host: "example.org", port: 1, tls: FieldTLS(enabled: true)))
        guard case .dictionary(let stored)? = file.value(forKey: "server") else {
            Issue.record("the file holds no structure")
            return
        }
        #expect(stored["port"] == .int(1))
    }

    @Test func aTextFieldKeepsTextThatLooksLikeANumber() throws {
        let file = try TemporaryFileStore()
        #expect(run(file, "set", "server.host", "8080").status == 0)
        #expect(ServerSettings(store: file).server.host == "8080")
    }

    @Test func aFieldValueThatDoesNotFitIsRefusedAndNothingIsWritten() throws {
        let file = try TemporaryFileStore()
        let bad = run(file, "set", "server.port", "many")
        #expect(bad.status == 65)
        #expect(
            bad.error
                == "tool config: server.port does not fit server's type FieldServer, got \"many\": at 'port': "
                + "expected Int, found string\n")
        #expect(file.value(forKey: "server") == nil)
    }

    @Test func aFieldTheStructureDoesNotHaveGetsADidYouMean() throws {
        let file = try TemporaryFileStore()
        let misspelt = run(file, "set", "server.prot", "1")
        #expect(misspelt.status == 1)
        #expect(misspelt.error == "tool config: server has no field 'prot' (did you mean 'server.port'?)\n")
        let notAStructure = run(file, "set", "pageSize.x", "1")
        #expect(notAStructure.status == 1)
        #expect(file.keys().isEmpty)
    }
}

/// Within the command line, a whole value replaces the field overrides given before it, and
/// field overrides given after it override it: the last word wins, as for lists.
@Suite(.timeLimit(TestScale.hangGuard))
struct CommandLineFieldOrderTests {
    private func server(_ arguments: [String]) throws -> FieldServer {
        let file = try TemporaryFileStore()
        let commandLine = CommandLineStore(arguments: arguments, declaredBy: ServerSettings.self)
        #expect(commandLine.errors.isEmpty)
        return ServerSettings(store: LayeredStore([commandLine, file], writingTo: file)).server
    }

    private let whole = #"server={"host":"a","port":1,"tls":{"enabled":true}}"#

    @Test func aWholeValueGivenAfterAFieldReplacesIt() throws {
        #expect(try server(["--server.port", "9", "--set", whole]).port == 1)
        #expect(try server(["--server.port", "9", "--server", String(whole.dropFirst(7))]).port == 1)
    }

    @Test func aFieldGivenAfterAWholeValueOverridesIt() throws {
        let given = try server(["--set", whole, "--server.port", "9"])
        #expect(given == FieldServer(host: "a", port: 9, tls: FieldTLS(enabled: true)))
    }
}
