import Foundation
import StoredSettings
import StoredSettingsMigrations
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Renames and versioned migrations on a `UserDefaultsStore`: run once per suite, once among
/// the threads of a process, and once among processes opening the suite at once (the batch's
/// lock file beside the suite's property list). Suites live in temporary folders.
@Suite(.timeLimit(TestScale.hangGuard))
struct UserDefaultsMigrationTests {
    /// Counts the runs of a migration from any thread.
    private final class Runs: Sendable {
        let count = Lock(0)
    }

    /// Version 2 moves `wrap` into `layout` as `{"wrapColumn": wrap}`, counting its runs.
    private func migrations(_ runs: Runs) -> [Migration] {
        [
            Migration(version: 2) { batch in
                runs.count.withLock { $0 += 1 }
                if case .int(let column)? = batch["wrap"] {
                    batch["layout"] = .dictionary(["wrapColumn": .int(column)])
                    batch["wrap"] = nil
                }
            }
        ]
    }

    /// The suite's domain file as another process would read it.
    private func domainFile(_ suite: TemporarySuite) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: suite.name + ".plist"))
        return try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] ?? [:]
    }

    @Test func aRenamedKeyReadsThroughAndTheFirstWriteMovesIt() throws {
        let suite = try TemporarySuite()
        try suite.store.setValue(.string("dark"), forKey: "theme")
        let store = try MigratingStore(suite.store, renamedKeys: [KeyRename(from: "theme", to: "appearance")])
        #expect(store.value(forKey: "appearance") == .string("dark"))
        #expect(store.keys() == ["appearance"])

        try store.setValue(.string("light"), forKey: "appearance")
        #expect(suite.store.value(forKey: "theme") == nil)
        let file = try domainFile(suite)
        #expect(file["appearance"] as? String == "light")
        #expect(file["theme"] == nil)
    }

    @Test func aVersionedMigrationRunsOnceAndRecordsItsVersionInTheSuite() throws {
        let suite = try TemporarySuite()
        try suite.store.setValue(.int(60), forKey: "wrap")
        let runs = Runs()
        let store = try MigratingStore(suite.store, migrations: migrations(runs))
        #expect(store.schemaVersion == 2)
        #expect(store.value(forKey: "layout") == .dictionary(["wrapColumn": .int(60)]))
        #expect(store.value(forKey: "wrap") == nil)
        let file = try domainFile(suite)
        #expect(file[MigratingStore.versionKey] as? Int == 2)
        #expect(file["wrap"] == nil)

        // Opened again, on another store of the same suite: nothing runs.
        let again = try MigratingStore(try UserDefaultsStore(suiteAtPath: suite.name), migrations: migrations(runs))
        #expect(again.schemaVersion == 2)
        #expect(runs.count.value == 1)
    }

    @Test func aMigrationThatThrowsWritesNothing() throws {
        struct Refused: Error {}
        let suite = try TemporarySuite()
        try suite.store.setValue(.int(60), forKey: "wrap")
        let failing = Migration(version: 2) { batch in
            batch["wrap"] = nil
            throw Refused()
        }
        let error = #expect(throws: StorageError.self) { try MigratingStore(suite.store, migrations: [failing]) }
        #expect(error?.code == .migrationFailed)
        #expect(suite.store.value(forKey: "wrap") == .int(60))
        #expect(suite.store.value(forKey: MigratingStore.versionKey) == nil)
    }

    @Test func storesOpenedAtOnceInOneProcessRunTheMigrationOnce() throws {
        let suite = try TemporarySuite()
        try suite.store.setValue(.int(60), forKey: "wrap")
        let runs = Runs()
        let failures = Lock(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do {
                let store = try MigratingStore(
                    try UserDefaultsStore(suiteAtPath: suite.name), migrations: migrations(runs))
                if store.schemaVersion != 2 { failures.withLock { $0 += 1 } }
            } catch {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.value == 0)
        #expect(runs.count.value == 1)
        #expect(suite.store.value(forKey: "layout") == .dictionary(["wrapColumn": .int(60)]))
    }

    @Test func processesOpeningTheSuiteAtOnceRunEachMigrationOnce() async throws {
        let suite = try TemporarySuite()
        let folder = try ScratchFolder()
        let log = folder.file("migrations.log")
        let target = "defaults:" + suite.name
        #expect(try await ChildProcess.run(["write-version-1", target]) == "done\n")

        // Both children read version 1's suite before either may take its batch lock.
        let outputs = try await migrateTogether(2, target: target, log: log, holding: suite.name + ".plist.lock")
        for output in outputs {
            #expect(output["version"] == "3", "\(output)")
            #expect(output["pageSize"] == "3", "\(output)")
            #expect(output["appearance"] == "dark", "\(output)")
        }
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(text.split(separator: "\n").map { $0.split(separator: " ")[0] } == ["2", "3"])
        let file = try domainFile(suite)
        #expect(file[MigratingStore.versionKey] as? Int == 3)
        #expect(file["pageSize"] as? Int == 3)
        #expect(file["wrap"] == nil)
    }
}
