import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsMigrations
import StoredSettingsTestSupport
import Testing

/// The strict JSON Schema, for a settings file that serves one group only: keys no setting
/// declares are refused.
@Suite(.timeLimit(TestScale.hangGuard))
struct JSONSchemaStrictTests {
    @Test func strictSchemaRejectsAKeyNoSettingDeclares() async throws {
        let folder = try ScratchFolder()
        let verdict = try await SchemaValidator.validate(
            text: #"{"flag": true, "flagg": true}"#, against: SchemaSettings.jsonSchema(strict: true), in: folder)
        #expect(verdict.errors == ": Additional properties are not allowed ('flagg' was unexpected)\n")
    }

    @Test func strictSchemaAcceptsTheFileTheStoreWrites() async throws {
        let folder = try ScratchFolder()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        SchemaSettings(store: store).assignEverySetting()
        try store.setValue(.int(2), forKey: MigratingStore.versionKey)

        let verdict = try await SchemaValidator.validate(
            store.url, against: SchemaSettings.jsonSchema(strict: true), in: folder)
        #expect(verdict.isValid, "\(verdict.errors)")
    }

    @Test func strictSchemaSaysItIsStrict() throws {
        let schema = try JSONSchemaTests.parsed(SchemaSettings.jsonSchema(strict: true))
        #expect(schema["additionalProperties"] as? Bool == false)
        let lenient = try JSONSchemaTests.parsed(SchemaSettings.jsonSchema())
        #expect(lenient["additionalProperties"] as? NSDictionary == JSONSchemaTests.anyValue)
    }

    @Test func configSchemaDeclaredOnlyPrintsTheStrictSchema() throws {
        let run = try ToolStores().run("schema", "--declared-only")
        #expect(run.status == 0)
        #expect(run.error == "")
        #expect(run.output == ToolSettings.jsonSchema(title: "tool settings", strict: true))
    }

    @Test func configSchemaDeclaredOnlyIsListedInTheHelp() throws {
        let help = try ToolStores().run("--help").output
        #expect(help.contains("schema [--declared-only]"), "\(help)")
    }
}
