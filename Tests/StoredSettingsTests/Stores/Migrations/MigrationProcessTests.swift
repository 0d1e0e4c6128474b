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

/// Migrations across real relaunches: version 1's data written by one process and migrated by
/// the next, children killed inside a migration, and eight processes opening at once. The
/// migrations are `migrate` in the test helper (MigrateCommand.swift), which logs each run
/// to a side file opened with `O_APPEND`.
@Suite(.timeLimit(TestScale.hangGuard))
struct MigrationProcessTests {
    /// The runs the side file logged, as the version of each, in order.
    private func loggedVersions(_ log: URL) -> [String] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    /// Checks that the file holds version 3's data.
    private func expectMigrated(_ url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = try FileStore(url: url, options: quietOptions)
        #expect(file.value(forKey: MigratingStore.versionKey) == .int(3), sourceLocation: sourceLocation)
        #expect(file.value(forKey: "layout") == .dictionary(["wrapColumn": .int(60)]), sourceLocation: sourceLocation)
        #expect(file.value(forKey: "wrap") == nil, sourceLocation: sourceLocation)
        #expect(file.value(forKey: "pageSize") == .int(3), sourceLocation: sourceLocation)
        // The rename is lazy: the old key stays until the new one is written.
        #expect(file.value(forKey: "theme") == .string("dark"), sourceLocation: sourceLocation)
    }

    @Test func aRelaunchMigratesWhatTheFirstVersionWrote() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let log = folder.file("migrations.log")
        #expect(try await ChildProcess.run(["write-version-1", url.path]) == "done\n")

        let output = facts(try await ChildProcess.run(["migrate", url.path, log.path]))
        #expect(output["version"] == "3")
        #expect(output["pageSize"] == "3")
        #expect(output["appearance"] == "dark")
        try expectMigrated(url)
        #expect(loggedVersions(log) == ["2", "3"])

        // The next launch finds version 3 recorded and runs nothing.
        let again = facts(try await ChildProcess.run(["migrate", url.path, log.path]))
        #expect(again["version"] == "3")
        #expect(loggedVersions(log) == ["2", "3"])
    }

    /// Killed inside version 2's migration, or inside version 3's after version 2's ran.
    @Test(arguments: [2, 3])
    func aChildKilledInsideAMigrationLeavesTheFileAsItWasAndTheNextLaunchCompletes(killedIn version: Int)
        async throws
    {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let log = folder.file("migrations.log")
        _ = try await ChildProcess.run(["write-version-1", url.path])
        let before = try Data(contentsOf: url)

        let child = try ChildProcess.launch(["migrate", url.path, log.path, String(version)])
        let (exitCode, output) = await child.finish()
        #expect(exitCode == nil, "the child was not killed: \(output)")
        #expect(output == "opened\n")
        #expect(loggedVersions(log) == (version == 2 ? ["2"] : ["2", "3"]))
        #expect(try Data(contentsOf: url) == before, "the killed migration changed the file")
        let untouched = try FileStore(url: url, options: quietOptions)
        #expect(untouched.value(forKey: "wrap") == .int(60))
        #expect(untouched.value(forKey: MigratingStore.versionKey) == nil)
        #expect(try folder.names() == ["migrations.log", "settings.json", "settings.json.lock"])

        let relaunch = facts(try await ChildProcess.run(["migrate", url.path, log.path]))
        #expect(relaunch["version"] == "3")
        try expectMigrated(url)
        #expect(loggedVersions(log).suffix(2) == ["2", "3"])
    }

    @Test func eightProcessesOpeningAtOnceRunEachMigrationOnce() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let log = folder.file("migrations.log")
        _ = try await ChildProcess.run(["write-version-1", url.path])

        // Every child reads version 1's file before any may take the writer lock: seven of
        // them must find, under the lock, that another already migrated.
        let outputs = try await migrateTogether(8, target: url.path, log: log, holding: url.path + ".lock")
        for output in outputs {
            #expect(output["version"] == "3", "\(output)")
            #expect(output["pageSize"] == "3", "\(output)")
        }
        #expect(loggedVersions(log) == ["2", "3"])
        try expectMigrated(url)
    }
}
