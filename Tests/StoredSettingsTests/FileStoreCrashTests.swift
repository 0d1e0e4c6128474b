import Foundation
import StoredSettings
import Testing

/// A writer killed with SIGKILL at random moments never leaves a broken file.
struct FileStoreCrashTests {
    @Test func killedWriterLeavesOldOrNewValueAndNoTemporaryFiles() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let size = 1_000_000
        try FileStore(url: url, options: quietOptions).setValue(.string(String(repeating: "Z", count: size)), forKey: "big")
        var generator = SystemRandomNumberGenerator()
        var killedWhileWriting = 0
        for round in 0..<200 {
            let child = try ChildProcess.launch(["write-loop", url.path, "big", String(size)])
            #expect(child.readLine() == "ready")
            // Time one rewrite (encode, write, fsync, rename), then kill at a random moment of
            // the next two, so kills land in every phase of a write.
            let start = ContinuousClock.now
            #expect(child.readLine() == "wrote")
            let cycle = ContinuousClock.now - start
            try await Task.sleep(for: cycle * Double.random(in: 0..<2, using: &generator))
            child.kill()
            _ = await child.finish()
            if try folder.names().contains(where: { $0.hasPrefix(".settings.json.tmp-") }) { killedWhileWriting += 1 }

            let reopened = try FileStore(url: url, options: quietOptions)
            guard case .string(let text)? = reopened.value(forKey: "big") else {
                Issue.record("round \(round): the value is missing or not a string")
                return
            }
            #expect(text.utf8.count == size, "round \(round): \(text.utf8.count) bytes")
            let first = text.utf8.first ?? 0
            #expect(text.utf8.allSatisfy { $0 == first }, "round \(round): the value mixes two writes")
            #expect(try folder.names() == ["settings.json", "settings.json.lock"], "round \(round)")
        }
        print("FileStore SIGKILL: 200 kills, \(killedWhileWriting) left a temporary file, 0 corrupt files")
    }
}
