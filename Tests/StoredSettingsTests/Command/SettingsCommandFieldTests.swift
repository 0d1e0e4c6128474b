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

/// `tool config ARGUMENTS` over `ServerSettings` on `store`.
private func run(_ store: any Storable, _ arguments: String...) -> CommandRun {
    var output = ""
    var error = ""
    let status = SettingsCommand(ServerSettings(store: store), toolName: "tool").run(
        arguments: arguments, output: &output, error: &error)
    return CommandRun(status: status, output: output, error: error)
}

/// `config set server.port 1` sets one field, as `--server.port 1` and `TOOL_SERVER_PORT` do
/// for one run, keeping the other fields of the file's value.
@Suite(.timeLimit(TestScale.hangGuard))
struct SettingsCommandFieldTests {
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

/// `config set` of a field on a real file: members the type does not declare stay, a value
/// that is no object is refused, and two writers setting different fields at once lose nothing.
@Suite(.timeLimit(TestScale.hangGuard))
struct SettingsCommandFieldFileTests {
    @Test func membersTheTypeDoesNotDeclareStay() throws {
        let scratch = try ScratchFolder()
        let url = scratch.file("settings.json")
        try Data(#"{"server": {"host": "a", "port": 1, "tls": {"enabled": false}, "future": {"x": 1}}}"#.utf8)
            .write(to: url)
        let store = try FileStore(url: url)
        #expect(run(store, "set", "server.port", "2").status == 0)
        #expect(
            store.value(forKey: "server")
                == .dictionary([
                    "host": .string("a"), "port": .int(2), "tls": .dictionary(["enabled": .bool(false)]),
                    "future": .dictionary(["x": .int(1)]),
                ]))
    }

    @Test func aValueThatIsNoObjectIsRefusedAndLeftAsItIs() throws {
        let scratch = try ScratchFolder()
        let store = try FileStore(url: scratch.file("settings.json"))
        try store.setValue(.int(5), forKey: "server")
        let refused = run(store, "set", "server.port", "2")
        #expect(refused.status == 65)
        #expect(
            refused.error
                == "tool config: server holds int, not a structure; give the whole value with 'set server JSON'\n"
        )
        #expect(store.value(forKey: "server") == .int(5))
    }

    @Test func aPathDeeperThanTheStructureIsAnUnknownField() throws {
        let scratch = try ScratchFolder()
        let store = try FileStore(url: scratch.file("settings.json"))
        let deep = "server." + Array(repeating: "tls", count: 10_000).joined(separator: ".")
        #expect(run(store, "set", deep, "1").status == 1)
        #expect(store.keys().isEmpty)
    }

    @Test func twoWritersSettingDifferentFieldsAtOnceLoseNothing() throws {
        let scratch = try ScratchFolder()
        let url = scratch.file("settings.json")
        let stores = [try FileStore(url: url), try FileStore(url: url)]
        let rounds = 50
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            for round in 1...rounds {
                let field = writer == 0 ? "server.port" : "server.host"
                _ = run(stores[writer], "set", field, writer == 0 ? "\(round)" : "host\(round)")
            }
        }
        let server = ServerSettings(store: try FileStore(url: url)).server
        #expect(server.port == rounds)
        #expect(server.host == "host\(rounds)")
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
