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

/// Another program (an editor) truncating the file and writing it again in place: a write that
/// sees the file empty or cut short never replaces it on that basis.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreInPlaceSaveTests {
    static let hundredKeys: Data = {
        let body = (0..<100).map { "\"k\($0)\": \"v\"" }.joined(separator: ", ")
        return Data("{\(body)}".utf8)
    }()

    @Test(.timeLimit(TestScale.hangGuard))
    func writeOverAFileEmptiedSinceItWasReadThrowsAndLeavesIt() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("s.json")
        try Self.hundredKeys.write(to: url)
        let store = try FileStore(url: url, options: quietOptions)
        #expect(store.keys().count == 100)

        let editor = try ChildProcess.launch(["truncate-and-stop", url.path])
        defer { editor.sendKill() }
        #expect(editor.readLine() == "truncated")
        #expect(waitUntilStopped(editor.pid))

        let error = try await offThePool { () -> StorageError? in
            do {
                try store.setValue(.string("x"), forKey: "w")
                return nil
            } catch let error as StorageError {
                return error
            }
        }
        #expect(error?.code == .dataCorrupted, "\(String(describing: error))")
        #expect(error?.key == "w")
        #expect(error?.location == url.path)
        #expect(try Data(contentsOf: url).isEmpty, "the emptied file was written over")
        #expect(store.value(forKey: "k0") == .string("v"), "the values in memory stay")
        #expect(store.value(forKey: "w") == nil)

        #expect(kill(editor.pid, SIGCONT) == 0)
        #expect(editor.readLine() == "restored")
        _ = await editor.finish()
        try store.setValue(.string("x"), forKey: "w")
        let reopened = try FileStore(url: url, options: quietOptions)
        #expect(reopened.keys().count == 101)
    }

    /// The race: `stored write` runs one after another while an editor saves the file
    /// in place again and again (truncate, 2 ms, write). One edit may lose against the other
    /// (the advisory-lock limit), never the other keys.
    @Test(.timeLimit(TestScale.hangGuard))
    func storedWritesRacingAnInPlaceSaveNeverDropOtherKeys() async throws {
        let stored = try #require(ProgramRun.storedPath)
        let folder = try ScratchFolder()
        let url = folder.file("s.json")
        try Self.hundredKeys.write(to: url)

        let editor = try ChildProcess.launch(["rewrite-in-place", url.path, "200", "2000"])
        var failures: [String] = []
        for index in 0..<20 {
            let run = try await ProgramRun.run(stored, ["write", url.path, "w", "-int", String(index)])
            // A write that found the file mid-save may fail (65, bad data); it must never
            // succeed by writing over the other keys.
            if run.exitCode != 0 {
                if run.exitCode != 65 { failures.append("exit \(String(describing: run.exitCode)): \(run.errors)") }
            }
            // Read between saves: a file caught mid-save (empty or cut short) says nothing.
            if let keys = try? FileStore(url: url, options: quietOptions).keys(), !keys.isEmpty, keys.count < 100 {
                failures.append("after write \(index): \(keys.count) keys")
            }
        }
        let (exitCode, output) = await editor.finish()
        #expect(exitCode == 0, "\(output)")
        #expect(failures.isEmpty, "\(failures)")
        let keys = try FileStore(url: url, options: quietOptions).keys()
        #expect(Set((0..<100).map { "k\($0)" }).isSubset(of: keys), "\(keys.count) keys left")
    }
}
