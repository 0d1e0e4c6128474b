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
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreLockFileTests {
    /// The lock file is deleted while this store holds it, and another process takes a new
    /// lock and writes: the store notices before its own `rename`, takes the lock again and runs
    /// its body again on the file the other process wrote, so both writes are kept.
    ///
    /// (A deleter racing writers at random can still hit the microseconds between that check and
    /// the `rename`: flock on a file others may delete cannot close that window. The
    /// "Configuration files" article says so.)
    @Test func writerWhoseLockFileWasDeletedRerunsOnTheNewContents() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(.int(0), forKey: "count")
        var runs = 0
        try store.update(forKey: "count") { value in
            runs += 1
            if runs == 1 {
                #expect(unlink(url.path + ".lock") == 0)
                let other = try ChildProcess.launch(["set", url.path, "other", "from another process"])
                #expect(other.readLine() == "ok", "the other process could not write")
                while other.readLine() != nil {}
                var status: Int32 = 0
                _ = waitpid(other.pid, &status, 0)
                close(other.output)
            }
            value = .int(1)
        }
        #expect(runs == 2, "the body did not run again after the lock file was replaced")
        let reopened = try FileStore(url: url, options: quietOptions)
        #expect(reopened.value(forKey: "other") == .string("from another process"))
        #expect(reopened.value(forKey: "count") == .int(1))
        #expect(try folder.names().filter { $0.hasPrefix(".settings.json.tmp-") }.isEmpty)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to create files of another user"), .timeLimit(TestScale.hangGuard))
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
    @Test(.enabled(if: geteuid() == 0, "needs root to create files of another user"), .timeLimit(TestScale.hangGuard))
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
