import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsMigrations
import StoredSettingsTestSupport
import Testing

/// ``MigratingStore`` on files edited by hand or by an older and a newer app at once: both keys
/// of a rename stored, and schema versions spelled as an `Int` setting reads them.
@Suite(.timeLimit(TestScale.hangGuard))
struct MigratingStoreEdgeTests {
    static let rename = KeyRename(from: "theme", to: "appearance")

    private func file(in folder: ScratchFolder, _ values: [String: StoredValue]) throws -> FileStore {
        let url = folder.file("settings.json")
        try FileStore(url: url, options: quietOptions).batch { batch in
            for (key, value) in values { batch[key] = value }
        }
        return try FileStore(url: url, options: quietOptions)
    }

    @Test func removingBothKeysOfARenameIsOneRemoval() async throws {
        let folder = try ScratchFolder()
        let file = try file(in: folder, ["theme": .string("dark"), "appearance": .string("light")])
        let store = try MigratingStore(file, renamedKeys: [Self.rename])
        var changes = store.changes().makeAsyncIterator()
        try store.setValue(nil, forKey: "appearance")
        try store.setValue(.int(1), forKey: "marker")
        #expect(await changes.next() == StoredChange(key: "appearance", value: nil))
        #expect(await changes.next() == StoredChange(key: "marker", value: .int(1)))
    }

    @Test func anotherWriterRemovingBothKeysIsOneRemoval() async throws {
        let folder = try ScratchFolder()
        let file = try file(in: folder, ["theme": .string("dark"), "appearance": .string("light")])
        let store = try MigratingStore(file, renamedKeys: [Self.rename])
        var changes = store.changes().makeAsyncIterator()
        let other = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        try other.batch { batch in
            batch["theme"] = nil
            batch["appearance"] = nil
        }
        try file.reload()
        try store.setValue(.int(2), forKey: "marker")
        #expect(await changes.next() == StoredChange(key: "appearance", value: nil))
        #expect(await changes.next() == StoredChange(key: "marker", value: .int(2)))
    }

    struct Spelling: Sendable, CustomTestStringConvertible {
        var value: StoredValue
        var testDescription: String { "\(value)" }
    }

    static let spellings: [Spelling] = [.double(3), .string("3"), .string(" 3\n"), .string("+3")].map(Spelling.init)

    @Test(arguments: spellings)
    func aVersionSpelledAsAnIntSettingReadsItOpensTheStore(_ spelling: Spelling) throws {
        let folder = try ScratchFolder()
        let file = try file(in: folder, [MigratingStore.versionKey: spelling.value, "count": .int(1)])
        let ran = Lock<[Int]>([])
        let migrations = (1...4).map { version in
            Migration(version: version) { batch in
                ran.withLock { $0.append(version) }
                batch["count"] = .int(Int64(version))
            }
        }
        let store = try MigratingStore(file, migrations: migrations)
        #expect(store.schemaVersion == 4)
        #expect(ran.withLock { $0 } == [4])
        #expect(file.value(forKey: MigratingStore.versionKey) == .int(4))
        #expect(try MigratingStore(file, migrations: Array(migrations.prefix(3))).schemaVersion == 4)
    }

    @Test(
        arguments: [StoredValue.double(3.5), .string("3.0"), .int(-1), .string("-1"), .double(-2)].map(Spelling.init))
    func aVersionNoIntSettingReadsOrBelowZeroIsAnErrorNamingTheKey(_ spelling: Spelling) throws {
        let folder = try ScratchFolder()
        let file = try file(in: folder, [MigratingStore.versionKey: spelling.value])
        let error = try #require(throws: StorageError.self) {
            try MigratingStore(file, migrations: [Migration(version: 1) { _ in }])
        }
        #expect(error.code == .typeMismatch)
        #expect(error.key == MigratingStore.versionKey)
        #expect(file.value(forKey: MigratingStore.versionKey) == spelling.value)
    }

    @Test func theVersionKeyIsOneTheCoreKnowsAsReserved() {
        // The command-line module spells the key out, since it cannot name this module.
        #expect(LayeredStore.reservedKeys.contains(MigratingStore.versionKey))
    }
}
