import Foundation
import StoredSettings
import Testing

/// `daybook config schema`, end to end: the schema the built tool prints validates the settings
/// file the tool writes, and rejects a hand edit of the wrong type.
@Suite(.timeLimit(TestScale.hangGuard))
struct DaybookSchemaTests {
    @Test func daybookSchemaValidatesTheSettingsFileDaybookWrites() async throws {
        let folder = try ScratchFolder()
        let environment = [
            "HOME": folder.path,
            "XDG_CONFIG_HOME": folder.file("config").path,
            "XDG_DATA_HOME": folder.file("data").path,
        ]
        let daybook = try TranscriptTests.daybookPath()
        for arguments in [
            ["write", "Planted", "the", "tomatoes."], ["config", "set", "format", "markdown"],
            ["config", "set", "layout", #"{"wrapColumn": 60, "indent": 4}"#], ["config", "set", "showDates", "no"],
        ] {
            let run = try await ProgramRun.run(daybook, arguments, environment: environment)
            #expect(run.exitCode == 0, "daybook \(arguments): \(run.errors)")
        }
        let schema = try await ProgramRun.run(daybook, ["config", "schema"], environment: environment)
        #expect(schema.exitCode == 0)
        #expect(schema.errors == "")
        let file = folder.file("config/daybook/settings.json")
        let keys = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]).keys
        #expect(Set(keys) == ["format", "lastEntry", "launchCount", "layout", "showDates"])

        let verdict = try await SchemaValidator.validate(file, against: schema.output, in: folder)
        #expect(verdict.isValid, "\(verdict.errors)")

        let edited = try await SchemaValidator.validate(
            text: #"{"format": "html", "layout": {"wrapColumn": 60}}"#, against: schema.output, in: folder)
        #expect(
            edited.errors
                == "format: 'html' is not one of ['plain', 'markdown']\nlayout: 'indent' is a required property\n")
    }

    @Test func daybookSchemaDeclaredOnlyRefusesAKeyNoSettingDeclares() async throws {
        let folder = try ScratchFolder()
        let environment = ["HOME": folder.path, "XDG_CONFIG_HOME": folder.file("config").path]
        let daybook = try TranscriptTests.daybookPath()
        let schema = try await ProgramRun.run(
            daybook, ["config", "schema", "--declared-only"], environment: environment)
        #expect(schema.exitCode == 0)
        #expect(schema.errors == "")
        let verdict = try await SchemaValidator.validate(
            text: #"{"pageSize": 3, "pageSise": 3}"#, against: schema.output, in: folder)
        #expect(verdict.errors == ": Additional properties are not allowed ('pageSise' was unexpected)\n")
    }
}
