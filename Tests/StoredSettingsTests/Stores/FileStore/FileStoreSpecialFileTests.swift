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

/// Special files where the settings file or its lock should be, and a process out of file
/// descriptors: every path ends with a clear error, none hangs or traps.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreSpecialFileTests {
    @Test(.timeLimit(TestScale.hangGuard))
    func openingAFIFOIsAnIOErrorNotAHang() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        #expect(mkfifo(url.path, 0o600) == 0)
        let output = try await ChildProcess.run(["read", url.path])
        let error = try #require(facts(output)["error"], "\(output)")
        #expect(error.hasPrefix("io "), "\(output)")
        #expect(error.contains(url.path))
        #expect(error.contains("not a regular file"))
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func lockFileThatIsAFIFOMakesWritesFailWithIONotHang() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try Data("{\"a\": 1}\n".utf8).write(to: url)
        #expect(mkfifo(url.path + ".lock", 0o600) == 0)
        let store = try FileStore(url: url, options: quietOptions)
        let error = try await offThePool { () -> StorageError? in
            do {
                try store.setValue(.int(2), forKey: "a")
                return nil
            } catch let error as StorageError {
                return error
            }
        }
        #expect(error?.code == .io)
        #expect(error?.description.contains("settings.json.lock") == true, "\(String(describing: error))")
        #expect(try Data(contentsOf: url) == Data("{\"a\": 1}\n".utf8))
        #expect(store.value(forKey: "a") == .int(1))
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func settingsFileReplacedByAFIFOIsReportedByTheChangeCheckAndWritesDoNotHang() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try Data("{\"a\": 1}\n".utf8).write(to: url)
        let store = try FileStore(url: url, options: quietOptions)
        let fifo = folder.file("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(rename(fifo, url.path) == 0)

        let reports = try await offThePool { reportedErrors { store.checkForExternalChange() }.1 }
        #expect(reports.map(\.code) == [.io])
        #expect(reports.first?.description.contains("not a regular file") == true, "\(reports)")
        #expect(store.value(forKey: "a") == .int(1), "the values in memory stay")

        let error = try await offThePool { () -> StorageError? in
            do {
                try store.setValue(.int(2), forKey: "a")
                return nil
            } catch let error as StorageError {
                return error
            }
        }
        #expect(error?.code == .io)
        #expect(error?.key == "a")
        #expect(store.value(forKey: "a") == .int(1))
    }

    /// RLIMIT_NOFILE is global to a process, so each case runs in a child process. With no
    /// descriptor free the store cannot read its file; with one it can read but not write (a
    /// write needs the lock file and a temporary file at once). Neither traps.
    @Test(.timeLimit(TestScale.hangGuard), arguments: [0, 1])
    func exhaustedDescriptorsGiveIOErrorsNeverATrap(_ free: Int) async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try Data("{\"a\": \"kept\"}\n".utf8).write(to: url)
        let child = try ChildProcess.launch(["descriptor-limit", String(free), url.path])
        let (exitCode, output) = await child.finish()
        #expect(exitCode == 0, "the child died: \(output)")
        let lines = facts(output)
        if free == 0 {
            #expect(lines["open"]?.hasPrefix("error io ") == true, "\(output)")
            #expect(lines["open"]?.contains("Too many open files") == true, "\(output)")
            #expect(lines["open"]?.contains(url.path) == true, "\(output)")
        } else {
            #expect(lines["open"] == "ok", "\(output)")
            #expect(lines["value"] == "kept", "\(output)")
            #expect(lines["write"]?.hasPrefix("error io ") == true, "\(output)")
            #expect(lines["write"]?.contains("Too many open files") == true, "\(output)")
        }
        #expect(try Data(contentsOf: url) == Data("{\"a\": \"kept\"}\n".utf8))
        #expect(try folder.names().filter { $0.hasPrefix(".settings.json.tmp-") }.isEmpty)
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func storedReadWithOneFreeDescriptorPrintsTheFile() async throws {
        let stored = try #require(ProgramRun.storedPath)
        let folder = try ScratchFolder()
        let url = folder.file("s.json")
        try Data("{\"a\": 1}\n".utf8).write(to: url)
        // bash keeps 0, 1 and 2 open: `ulimit -n 4` leaves one descriptor free for `stored`,
        // once 3 is closed (a descriptor of this test process that a library opened without
        // close-on-exec could be there, and the loader would find none free).
        let read = try await ProgramRun.run(
            "/bin/bash", ["-c", "ulimit -n 4; exec 3>&-; exec \"$0\" read \"$1\"", stored, url.path])
        #expect(read.signal == nil, "stored died with signal \(read.signal ?? 0): \(read.errors)")
        #expect(read.exitCode == 0, "\(read.errors)")
        #expect(read.output == "{\n  \"a\": 1\n}\n")

        let write = try await ProgramRun.run(
            "/bin/bash", ["-c", "ulimit -n 4; exec 3>&-; exec \"$0\" write \"$1\" a -int 2", stored, url.path])
        #expect(write.signal == nil, "stored died with signal \(write.signal ?? 0): \(write.errors)")
        #expect(write.exitCode == 74, "\(write.errors)")
        #expect(write.errors.contains("Too many open files"), "\(write.errors)")
        #expect(try Data(contentsOf: url) == Data("{\"a\": 1}\n".utf8))
    }
}
