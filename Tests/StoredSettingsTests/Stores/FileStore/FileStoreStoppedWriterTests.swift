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

/// A writer stopped with SIGSTOP (Ctrl-Z) in the middle of a write, holding the lock, with its
/// temporary file in the folder: nobody waits for it, and nobody deletes its file.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreStoppedWriterTests {
    static let size = 1_000_000

    @Test(.timeLimit(TestScale.hangGuard))
    func openingAndReadingNeverWaitForAStoppedWriter() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try FileStore(url: url, options: quietOptions).setValue(.string("first"), forKey: "other")
        guard let writer = try writerStoppedMidWrite(url, size: Self.size) else { return }
        defer { writer.sendKill() }

        let reopened = try await offThePool { try FileStore(url: url) }
        #expect(reopened.value(forKey: "other") == .string("first"))

        let stored = try #require(ProgramRun.storedPath)
        let read = try await ProgramRun.run(stored, ["read", url.path, "other"])
        #expect(read.exitCode == 0, "\(read.errors)")
        #expect(read.output == "\"first\"\n")

        writer.sendKill()
        _ = await writer.finish()
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func aLiveWritersTemporaryFileIsNeverRemoved() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try FileStore(url: url, options: quietOptions).setValue(.string("first"), forKey: "other")
        guard let writer = try writerStoppedMidWrite(url, size: Self.size) else { return }
        defer { writer.sendKill() }
        let temporary = try #require(try folder.names().first { $0.hasPrefix(".settings.json.tmp-") })

        // Someone deletes the lock file while the stopped writer holds it; another store
        // opens and writes.
        #expect(unlink(url.path + ".lock") == 0)
        let store = try await offThePool { try FileStore(url: url, options: quietOptions) }
        #expect(try folder.names().contains(temporary), "opening removed a live writer's temporary file")
        try await offThePool { try store.setValue(.string("second"), forKey: "other") }
        #expect(try folder.names().contains(temporary), "a write removed a live writer's temporary file")

        // Continued, the writer meets its own file-size limit: a clean I/O error about that,
        // not a missing temporary file; it removes its temporary file itself.
        #expect(kill(writer.pid, SIGCONT) == 0)
        let (exitCode, output) = await writer.finish()
        #expect(exitCode == 0, "\(output)")
        #expect(facts(output)["error"]?.hasPrefix("io ") == true, "\(output)")
        #expect(facts(output)["error"]?.contains("File too large") == true, "\(output)")
        #expect(try folder.names() == ["settings.json", "settings.json.lock"])
        #expect(try FileStore(url: url, options: quietOptions).value(forKey: "other") == .string("second"))
    }
}
