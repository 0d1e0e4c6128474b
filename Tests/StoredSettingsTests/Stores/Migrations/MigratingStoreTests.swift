import Foundation
import StoredSettings
import StoredSettingsMigrations
import StoredSettingsTestSupport
import Testing

/// ``MigratingStore`` in one process: renamed keys and versioned migrations over a real file.
@Suite(.timeLimit(TestScale.hangGuard))
struct MigratingStoreTests {
    static let rename = KeyRename(from: "theme", to: "appearance")

    /// A settings file as version 1 of an app wrote it.
    private func versionOneFile(in folder: ScratchFolder, _ values: [String: StoredValue]) throws -> FileStore {
        let url = folder.file("settings.json")
        let writer = try FileStore(url: url, options: quietOptions)
        try writer.batch { batch in
            for (key, value) in values { batch[key] = value }
        }
        return try FileStore(url: url, options: quietOptions)
    }

    @Test func readsOfARenamedKeyFallBackToTheOldKey() throws {
        let folder = try ScratchFolder()
        let file = try versionOneFile(in: folder, ["theme": .string("dark")])
        let store = try MigratingStore(file, renamedKeys: [Self.rename])

        #expect(store.value(forKey: "appearance") == .string("dark"))
        #expect(store.keys() == ["appearance"])
        // Reading never writes: the file still holds the old key only.
        #expect(file.value(forKey: "theme") == .string("dark"))
        #expect(file.value(forKey: "appearance") == nil)
    }

    @Test func theNewKeyWinsOverTheOldOneWhenBothAreStored() throws {
        let folder = try ScratchFolder()
        let file = try versionOneFile(in: folder, ["theme": .string("dark"), "appearance": .string("light")])
        let store = try MigratingStore(file, renamedKeys: [Self.rename])
        #expect(store.value(forKey: "appearance") == .string("light"))
        #expect(store.keys() == ["appearance"])
    }

    @Test func theFirstWriteOfTheNewKeyMovesItInOneWrite() throws {
        let folder = try ScratchFolder()
        let file = try versionOneFile(in: folder, ["theme": .string("dark"), "pageSize": .int(3)])
        let store = try MigratingStore(file, renamedKeys: [Self.rename])

        let revision = file.valueWithRevision(forKey: "appearance").revision ?? 0
        try store.setValue(.string("light"), forKey: "appearance")

        // One commit (one atomic rename) wrote the new key and removed the old one.
        #expect(file.valueWithRevision(forKey: "appearance").revision == revision + 1)
        let text = try String(contentsOf: folder.file("settings.json"), encoding: .utf8)
        #expect(!text.contains("theme"))
        let reopened = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        #expect(reopened.value(forKey: "theme") == nil)
        #expect(reopened.value(forKey: "appearance") == .string("light"))
        #expect(reopened.value(forKey: "pageSize") == .int(3))
    }

    @Test func removingTheNewKeyRemovesTheOldOneToo() throws {
        let folder = try ScratchFolder()
        let file = try versionOneFile(in: folder, ["theme": .string("dark")])
        let store = try MigratingStore(file, renamedKeys: [Self.rename])

        try store.setValue(nil, forKey: "appearance")
        #expect(store.value(forKey: "appearance") == nil)
        #expect(file.keys().isEmpty)
    }

    @Test func anUpdateOfARenamedKeyStartsFromTheOldValueAndMovesIt() throws {
        let folder = try ScratchFolder()
        let file = try versionOneFile(in: folder, ["launches": .int(41)])
        let store = try MigratingStore(file, renamedKeys: [KeyRename(from: "launches", to: "launchCount")])

        try store.update(forKey: "launchCount") { value in
            if case .int(let count)? = value { value = .int(count + 1) }
        }
        #expect(file.value(forKey: "launchCount") == .int(42))
        #expect(file.value(forKey: "launches") == nil)
    }

    @Test func aSettingsGroupReadsAndWritesThroughTheRename() throws {
        let folder = try ScratchFolder()
        let file = try versionOneFile(in: folder, ["theme": .string("dark")])
        let settings = RenamedSettings(store: try MigratingStore(file, renamedKeys: [Self.rename]))
        #expect(settings.appearance == "dark")
        settings.appearance = "light"
        #expect(file.value(forKey: "appearance") == .string("light"))
        #expect(file.value(forKey: "theme") == nil)
    }

    @Test func aChangeOfTheOldKeyArrivesAsAChangeOfTheNewKey() async throws {
        let folder = try ScratchFolder()
        let file = try versionOneFile(in: folder, ["theme": .string("dark")])
        let store = try MigratingStore(file, renamedKeys: [Self.rename])
        var changes = store.changes().makeAsyncIterator()

        try file.setValue(.string("sepia"), forKey: "theme")
        #expect(await changes.next() == StoredChange(key: "appearance", value: .string("sepia")))
        // The move: the new key's value arrives once; the old key's removal is not a change.
        try store.setValue(.string("light"), forKey: "appearance")
        #expect(await changes.next() == StoredChange(key: "appearance", value: .string("light")))
        try store.setValue(.int(1), forKey: "marker")
        #expect(await changes.next() == StoredChange(key: "marker", value: .int(1)))
    }

    @Test func migrationsRunInVersionOrderOnceAndRecordTheVersion() throws {
        let folder = try ScratchFolder()
        let file = try versionOneFile(in: folder, ["wrap": .int(60)])
        let order = Lock<[Int]>([])
        let migrations = [
            Migration(version: 3) { batch in
                order.withLock { $0.append(3) }
                if case .dictionary(var layout)? = batch["layout"] {
                    layout["indent"] = .int(2)
                    batch["layout"] = .dictionary(layout)
                }
            },
            Migration(version: 2) { batch in
                order.withLock { $0.append(2) }
                batch.moveValue(fromKey: "wrap", toKey: "layout")
                if case .int(let column)? = batch["layout"] {
                    batch["layout"] = .dictionary(["wrapColumn": .int(column)])
                }
            },
        ]
        let store = try MigratingStore(file, migrations: migrations)

        #expect(order.value == [2, 3])
        #expect(store.schemaVersion == 3)
        #expect(file.value(forKey: MigratingStore.versionKey) == .int(3))
        #expect(file.value(forKey: "layout") == .dictionary(["wrapColumn": .int(60), "indent": .int(2)]))
        #expect(file.value(forKey: "wrap") == nil)
        #expect(!store.keys().contains(MigratingStore.versionKey))

        // A relaunch: the recorded version is 3, so nothing runs again.
        let relaunched = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        _ = try MigratingStore(relaunched, migrations: migrations)
        #expect(order.value == [2, 3])
    }

    @Test func onlyMigrationsAboveTheRecordedVersionRun() throws {
        let folder = try ScratchFolder()
        let file = try versionOneFile(in: folder, [MigratingStore.versionKey: .int(2), "count": .string("7")])
        let ran = Lock<[Int]>([])
        let store = try MigratingStore(
            file,
            migrations: [
                Migration(version: 2) { _ in ran.withLock { $0.append(2) } },
                Migration(version: 3) { batch in
                    ran.withLock { $0.append(3) }
                    if case .string(let text)? = batch["count"], let count = Int64(text) {
                        batch["count"] = .int(count)
                    }
                },
            ])
        #expect(ran.value == [3])
        #expect(store.schemaVersion == 3)
        #expect(file.value(forKey: "count") == .int(7))
    }

    @Test func aStoreWrittenByANewerVersionIsLeftAsItIs() throws {
        let folder = try ScratchFolder()
        let file = try versionOneFile(in: folder, [MigratingStore.versionKey: .int(9)])
        let store = try MigratingStore(file, migrations: [Migration(version: 2) { _ in Issue.record("ran") }])
        #expect(store.schemaVersion == 9)
        #expect(file.value(forKey: MigratingStore.versionKey) == .int(9))
    }

    @Test func aThrowingMigrationWritesNothingAndNamesTheVersionAndTheFile() throws {
        struct Refused: Error, CustomStringConvertible {
            var description: String { "the layout cannot be converted" }
        }
        let folder = try ScratchFolder()
        let file = try versionOneFile(in: folder, ["wrap": .int(60)])
        let before = try Data(contentsOf: folder.file("settings.json"))

        let error = #expect(throws: StorageError.self) {
            try MigratingStore(
                file,
                migrations: [
                    Migration(version: 2) { batch in batch["wrap"] = nil },
                    Migration(version: 3) { _ in throw Refused() },
                ])
        }
        #expect(error?.code == .migrationFailed)
        #expect(error?.location == folder.file("settings.json").path)
        let path = folder.file("settings.json").path
        #expect(error?.description == "\(path): migration to version 3 failed: the layout cannot be converted.")
        #expect(try Data(contentsOf: folder.file("settings.json")) == before)
        #expect(file.value(forKey: "wrap") == .int(60))
    }

    @Test func aRecordedVersionThatIsNotANumberIsAnErrorNamingTheKey() throws {
        let folder = try ScratchFolder()
        let file = try versionOneFile(in: folder, [MigratingStore.versionKey: .string("two")])
        let error = #expect(throws: StorageError.self) {
            try MigratingStore(file, migrations: [Migration(version: 2) { _ in Issue.record("ran") }])
        }
        #expect(error?.code == .typeMismatch)
        #expect(error?.key == MigratingStore.versionKey)
        #expect(error?.location == folder.file("settings.json").path)
    }

    @Test func twoMigrationsWithOneVersionAreAnError() throws {
        let folder = try ScratchFolder()
        let file = try versionOneFile(in: folder, [:])
        let error = #expect(throws: StorageError.self) {
            try MigratingStore(file, migrations: [Migration(version: 2) { _ in }, Migration(version: 2) { _ in }])
        }
        #expect(error?.code == .migrationFailed)
        #expect(file.keys().isEmpty)
    }

    @Test func aTemporaryFileStoreCanBeMigratedAndReopened() throws {
        let temporary = try TemporaryFileStore()
        try temporary.setValue(.string("dark"), forKey: "theme")
        let migrations = [Migration(version: 2) { batch in batch.moveValue(fromKey: "theme", toKey: "appearance") }]
        let store = try MigratingStore(temporary, migrations: migrations)
        #expect(store.value(forKey: "appearance") == .string("dark"))

        let relaunch = try temporary.reopened()
        #expect(relaunch.value(forKey: MigratingStore.versionKey) == .int(2))
        #expect(relaunch.value(forKey: "theme") == nil)
        #expect(relaunch.value(forKey: "appearance") == .string("dark"))
    }

    @Test func aKeyRenamedTwiceIsAnError() throws {
        let folder = try ScratchFolder()
        let file = try versionOneFile(in: folder, [:])
        let error = #expect(throws: StorageError.self) {
            try MigratingStore(
                file, renamedKeys: [KeyRename(from: "theme", to: "appearance"), KeyRename(from: "theme", to: "look")])
        }
        #expect(error?.code == .invalidKey)
        #expect(error?.key == "theme")
    }
}

private struct RenamedSettings: SettingsGroup {
    @Stored("appearance", default: "system")
    var appearance: String
}
