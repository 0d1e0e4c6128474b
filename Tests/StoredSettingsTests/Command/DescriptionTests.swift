import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

@Suite(.timeLimit(TestScale.hangGuard))
struct DescriptionTests {
    @Test func describesEverySettingInDeclarationOrder() throws {
        let store = InMemoryStore(["pageSize": .int(50), "lastOpened": .date(sampleDate)])
        let descriptions = ToolSettings(store: store).settingDescriptions()
        #expect(
            descriptions.map(\.key) == ["autoReload", "pageSize", "theme", "lastOpened", "tags", "apiToken", "pin"])
        #expect(descriptions.map(\.typeName) == ["Bool", "Int", "ToolTheme", "Date?", "[String]", "String", "Int?"])
        #expect(
            descriptions[0]
                == SettingDescription(
                    key: "autoReload", propertyName: "autoReload", typeName: "Bool", defaultValue: .bool(false),
                    value: .bool(false), origin: "default", help: "Reload files when they change."
                ))
        #expect(descriptions[1].value == .int(50))
        #expect(descriptions[1].origin == "memory")
        #expect(descriptions[1].isStored)
        #expect(descriptions[3].displayValue == "2025-01-31T07:06:40.25Z")
        #expect(descriptions[3].displayDefault == "(not set)")
        #expect(descriptions[6].displayValue == "(not set)")
    }

    @Test func normalizesLenientTextToTheDeclaredType() throws {
        let store = EnvironmentStore(prefix: "TOOL", environment: ["TOOL_AUTO_RELOAD": "YES", "TOOL_PAGE_SIZE": " 7"])
        let descriptions = ToolSettings(store: store).settingDescriptions()
        #expect(descriptions[0].value == .bool(true))
        #expect(descriptions[1].value == .int(7))
        #expect(descriptions[0].origin == "environment variable TOOL_AUTO_RELOAD")
    }

    @Test func describesAMalformedValueWithItsProblemAndWritesNothing() throws {
        let store = InMemoryStore(["theme": .string("purple")])
        let reports = CapturedReports()
        let description = try #require(
            reports.capture { ToolSettings(store: store).settingDescriptions() }.first { $0.key == "theme" })
        #expect(description.value == nil)
        #expect(description.displayValue == "(invalid)")
        #expect(description.problem?.code == .typeMismatch)
        #expect(description.problem?.key == "theme")
        #expect(reports.all.isEmpty)
        #expect(store.value(forKey: "theme") == .string("purple"))
    }

    @Test func redactsSecretValuesAndDefaults() throws {
        let store = InMemoryStore(["apiToken": .string("tok-123"), "pin": .int(4321)])
        let descriptions = ToolSettings(store: store).settingDescriptions()
        let token = try #require(descriptions.first { $0.key == "apiToken" })
        #expect(token.isSecret)
        #expect(token.value == .string("<redacted>"))
        #expect(token.defaultValue == .string("<redacted>"))
        #expect(token.displayValue == "<redacted>")
        let pin = try #require(descriptions.first { $0.key == "pin" })
        #expect(pin.displayValue == "<redacted>")
        #expect(!String(describing: descriptions).contains("tok-123"))
        #expect(!String(describing: descriptions).contains("4321"))
    }

    @Test func helpAndSecretAreKeptOnTheWrapper() {
        let settings = ToolSettings(store: InMemoryStore())
        #expect(settings.$autoReload.help == "Reload files when they change.")
        #expect(settings.$autoReload.isSecret == false)
        #expect(settings.$apiToken.isSecret)
        #expect(settings.$pin.isSecret)
        #expect(settings.$pin.help == nil)
        #expect(settings.$theme.help == nil)
    }

    /// The secret in several shapes, so no encoding of it slips through.
    private static let secret = "s3cr3t-Zebra-42"

    @Test func secretsAreNeverPrintedInAnyOutputOrError() throws {
        let tool = try ToolStores(
            environment: ["TOOL_API_TOKEN": Self.secret],
            arguments: ["--set", "pin=987654"]
        )
        var transcript = ""
        func record(_ run: CommandRun) { transcript += run.output + run.error }
        record(tool.run("list"))
        record(tool.run("list", "--show-origin"))
        record(tool.run("list", "--json"))
        record(tool.run("get", "apiToken"))
        record(tool.run("get", "pin"))
        record(tool.run("set", "apiToken", Self.secret + "-new"))
        record(tool.run("set", "pin", Self.secret))
        record(tool.run("unset", "apiToken"))
        record(tool.run("--help"))

        // A malformed secret in a file: listing and reading it report errors, never the bytes.
        let file = try TemporaryFileStore()
        try file.setValue(.string(Self.secret), forKey: "pin")
        let broken = ToolSettings(store: LayeredStore([file], writingTo: file))
        var output = ""
        var error = ""
        _ = SettingsCommand(broken, toolName: "tool").run(
            arguments: ["list", "--show-origin"], output: &output, error: &error)
        transcript += output + error
        let reports = CapturedReports()
        reports.capture { _ = broken.pin }
        #expect(reports.all.count == 1, "the malformed secret was reported once")
        #expect(throws: StorageError.self) { try broken.$pin.load() }
        transcript += reports.all.map(\.description).joined(separator: "\n")
        transcript += (try? broken.$pin.load()).map { "\(String(describing: $0))" } ?? ""
        do { _ = try broken.$pin.load() } catch { transcript += String(describing: error) }
        let commandLine = CommandLineStore(
            arguments: ["--set", "=" + Self.secret, "--pin"], declaredBy: ToolSettings.self)
        transcript += commandLine.errors.map(\.description).joined(separator: "\n")
        #expect(commandLine.errors.count == 2, "\(commandLine.errors)")

        #expect(transcript.contains("<redacted>"))
        #expect(!transcript.contains(Self.secret))
        #expect(!transcript.contains("987654"))
        #expect(!transcript.contains("s3cr3t"))
    }

    @Test func getShowsASecretOnlyWhenAsked() throws {
        let tool = try ToolStores(environment: ["TOOL_API_TOKEN": Self.secret])
        #expect(tool.run("get", "apiToken").output == "<redacted>\n")
        #expect(tool.run("get", "apiToken", "--show-secret").output == Self.secret + "\n")
    }
}
