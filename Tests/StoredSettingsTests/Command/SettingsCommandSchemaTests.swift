import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// `config schema`: the JSON Schema of the tool's settings file, for editors.
@Suite(.timeLimit(TestScale.hangGuard))
struct SettingsCommandSchemaTests {
    @Test func schemaPrintsTheJSONSchemaOfTheSettingsFile() throws {
        let tool = try ToolStores()
        let run = tool.run("schema")
        #expect(run.status == 0)
        #expect(run.error == "")
        #expect(run.output == ToolSettings.jsonSchema(title: "tool settings"))
    }

    @Test func schemaDescribesTheDeclaredSettingsWhateverTheStoreHolds() throws {
        let tool = try ToolStores(environment: ["TOOL_PAGE_SIZE": "many"])
        try tool.file.setValue(.string("not a bool"), forKey: "autoReload")
        let run = tool.run("schema")
        #expect(run.status == 0)
        #expect(run.output == ToolSettings.jsonSchema(title: "tool settings"))
    }

    @Test func schemaTakesNoArguments() throws {
        let run = try ToolStores().run("schema", "autoReload")
        #expect(run.status == 64)
        #expect(run.output == "")
        #expect(run.error == "tool config: schema takes no arguments. See 'tool config --help'.\n")
    }

    @Test func schemaIsListedInTheHelp() throws {
        let help = try ToolStores().run("--help").output
        #expect(
            help.contains(
                "\n  schema [--declared-only] [--draft V]     Print a JSON Schema of the settings\n"
                    + "                                           file, for editors.\n")
        )
    }
}
