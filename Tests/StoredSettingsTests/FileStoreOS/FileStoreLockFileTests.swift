import Foundation
import StoredSettings
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock file deleted while writers hold it, and lock files made by another user.
@Suite(.timeLimit(.minutes(3)))
struct FileStoreLockFileTests {
    @Test(.timeLimit(.minutes(3)))
    func deletingTheLockFileWhileWritersHoldItLosesNoIncrement() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try FileStore(url: url, options: quietOptions).setValue(.int(0), forKey: "count")
        let deleter = try ChildProcess.launch(["unlink-loop", url.path + ".lock", "200"])
        defer { deleter.sendKill() }
        #expect(deleter.readLine() == "ready")

        let processes = 4
        let increments = 100
        let writers = try (0..<processes).map { _ in try ChildProcess.launch(["increment-counting", url.path, "count", String(increments)]) }
        // A writer whose lock file keeps vanishing may give up on an update with a clear error
        // (how often depends on how fast the disk syncs); no update that reported success may
        // be lost.
        var succeeded = 0
        for writer in writers {
            let (exitCode, output) = await writer.finish()
            #expect(exitCode == 0, "\(output)")
            let report = facts(output)
            succeeded += report["done"].flatMap { Int($0) } ?? 0
            if let failed = report["failed"], !failed.hasPrefix("0") {
                #expect(failed.contains("keeps being deleted"), "an update failed for another reason: \(failed)")
            }
        }
        deleter.sendKill()
        _ = await deleter.finish()
        let store = try FileStore(url: url, options: quietOptions)
        #expect(succeeded > 0)
        #expect(store.value(forKey: "count") == .int(Int64(succeeded)), "\(succeeded) updates succeeded")
        #expect(try folder.names().filter { $0.hasPrefix(".settings.json.tmp-") }.isEmpty)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to create files of another user"), .timeLimit(.minutes(3)))
    func writeAsRootKeepsTheOwnerGroupAndModeOfTheFile() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try Data("{\"a\": 1}\n".utf8).write(to: url)
        #expect(chown(url.path, 65534, 65534) == 0)
        #expect(chmod(url.path, 0o640) == 0)
        try FileStore(url: url, options: quietOptions).setValue(.int(2), forKey: "a")
        var info = stat()
        #expect(stat(url.path, &info) == 0)
        #expect(info.st_uid == 65534)
        #expect(info.st_gid == 65534)
        #expect(UInt32(info.st_mode) & 0o7777 == 0o640)
        #expect(try FileStore(url: url, options: quietOptions).value(forKey: "a") == .int(2))
    }

    /// Root writes first, creating the lock file; then the owner, as themselves, writes too.
    @Test(.enabled(if: geteuid() == 0, "needs root to create files of another user"), .timeLimit(.minutes(3)))
    func lockFileFirstCreatedByRootDoesNotLockTheOwnerOut() async throws {
        let folder = try ScratchFolder()
        let home = folder.file("home")
        #expect(mkdir(home.path, 0o700) == 0)
        #expect(chown(home.path, 65534, 65534) == 0)
        let url = home.appendingPathComponent("settings.json")
        try Data("{\"a\": 1}\n".utf8).write(to: url)
        #expect(chown(url.path, 65534, 65534) == 0)
        #expect(chmod(url.path, 0o600) == 0)

        try FileStore(url: url, options: quietOptions).setValue(.int(2), forKey: "a")
        var info = stat()
        #expect(stat(url.path + ".lock", &info) == 0)
        #expect(info.st_uid == 65534, "the lock file belongs to the settings file's owner")

        let output = facts(try await ChildProcess.run(["set", url.path, "b", "mine", "--drop-privileges"]))
        #expect(output["ok"] != nil, "\(output)")
        #expect(output["memory"] == "mine")
        let store = try FileStore(url: url, options: quietOptions)
        #expect(store.value(forKey: "a") == .int(2))
        #expect(store.value(forKey: "b") == .string("mine"))
    }
}
