import Foundation
import StoredSettings
import StoredSettingsMigrations
import Testing

// The migration of the "Changing a stored type" article, word for word, so the compiler
// checks it, and run on a file as version 1 of the app left it.

func openSettings(at url: URL) throws -> MigratingStore {
    try MigratingStore(
        FileStore(url: url),
        renamedKeys: [KeyRename(from: "colorScheme", to: "appearance")],
        migrations: [
            Migration(version: 2) { batch in
                if case .dictionary(var profile)? = batch["profile"], profile["theme"] == nil {
                    profile["theme"] = .string("system")
                    batch["profile"] = .dictionary(profile)
                }
            },
            Migration(version: 3) { batch in
                if case .int(let column)? = batch["wrapColumn"] {
                    batch["layout"] = .dictionary(["wrapColumn": .int(column), "indent": .int(2)])
                    batch["wrapColumn"] = nil
                }
            },
        ]
    )
}

@Suite(.timeLimit(TestScale.hangGuard))
struct SchemaEvolutionMigrationExample {
    @Test func theArticleMigrationReadsWhatVersionOneStored() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try Data(#"{"colorScheme": "dark", "profile": {"name": "Ada"}, "wrapColumn": 60}"#.utf8).write(to: url)

        let store = try openSettings(at: url)
        let profile = try Stored<DefaultingProfile>("profile", default: DefaultingProfile(name: "?"), store: store)
            .load()
        #expect(profile == DefaultingProfile(name: "Ada", theme: "system"))
        #expect(store.value(forKey: "layout") == .dictionary(["wrapColumn": .int(60), "indent": .int(2)]))
        #expect(store.value(forKey: "appearance") == .string("dark"))
        #expect(store.schemaVersion == 3)
        #expect(Set(store.keys()) == ["appearance", "layout", "profile"])
    }
}
