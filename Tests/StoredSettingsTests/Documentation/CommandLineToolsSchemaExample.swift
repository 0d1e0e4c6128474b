import Foundation
import StoredSettings
import StoredSettingsCommandLine
import Testing

// The schema example of the "Configuration for command-line tools" article, so the compiler
// checks it; the article's `daybook config schema` transcript runs in TranscriptTests.

@Suite(.timeLimit(TestScale.hangGuard))
struct CommandLineToolsSchemaExample {
    @Test func articleSchemaDescribesTheNotesSettings() throws {
        let schema = NotesSettings.jsonSchema(title: "notes settings")

        let object = try #require(try JSONSerialization.jsonObject(with: Data(schema.utf8)) as? [String: Any])
        #expect(object["title"] as? String == "notes settings")
        let properties = try #require(object["properties"] as? [String: [String: Any]])
        #expect(
            properties.keys.sorted() == [
                "autoReload", "editor", "lastSync", "syncToken", "tags", "theme", "wrapColumn",
            ])
        #expect(properties["theme"]?["enum"] as? [String] == ["plain", "color"])
        #expect(properties["syncToken"]?["writeOnly"] as? Bool == true)
        #expect(properties["editor"]?["default"] as? String == "vi")
    }
}
