import Foundation
import StoredSettings
import Testing

/// A writer killed with SIGKILL at random moments never leaves a broken file.
///
/// The child process places each kill itself (see `crash-write` in the test helper), so these
/// tests wait only for the child to end. `swift test` runs dozens of kills; with
/// `STORED_SETTINGS_FULL_SCALE=1` (the reliability step of `.ci/run`) 500, and 60 of the 1 MB
/// kills against UserDefaults for comparison.
@Suite(.timeLimit(.minutes(30)))
struct FileStoreCrashTests {
    struct Load: Sendable, CustomTestStringConvertible {
        let size: Int
        let rounds: Int
        var testDescription: String { "\(rounds) kills during \(size)-byte rewrites" }
    }

    static let loads = [
        Load(size: 1_000, rounds: TestScale.pick(quick: 12, full: 250)),
        Load(size: 1_000_000, rounds: TestScale.pick(quick: 12, full: 200)),
        Load(size: 10_000_000, rounds: TestScale.pick(quick: 4, full: 50)),
    ]

    @Test(arguments: loads)
    func killedWriterLeavesOldOrNewValueAndNoTemporaryFiles(load: Load) async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try FileStore(url: url, options: quietOptions).setValue(
            .string(String(repeating: "Z", count: load.size)), forKey: "big")
        var killedWhileWriting = 0
        for round in 0..<load.rounds {
            let child = try ChildProcess.launch(["crash-write", url.path, "big", String(load.size)])
            let (exitCode, output) = await child.finish()
            #expect(
                exitCode == nil && output.hasPrefix("armed"),
                "round \(round): the writer did not die by its kill: \(output)")
            if try folder.names().contains(where: { $0.hasPrefix(".settings.json.tmp-") }) { killedWhileWriting += 1 }

            let reopened = try FileStore(url: url, options: quietOptions)
            guard case .string(let text)? = reopened.value(forKey: "big") else {
                Issue.record("round \(round): the value is missing or not a string")
                return
            }
            #expect(text.utf8.count == load.size, "round \(round): \(text.utf8.count) bytes")
            let first = text.utf8.first ?? 0
            #expect(text.utf8.allSatisfy { $0 == first }, "round \(round): the value mixes two writes")
            // The next write removes a killed writer's temporary file.
            try reopened.setValue(.int(Int64(round)), forKey: "round")
            #expect(try folder.names() == ["settings.json", "settings.json.lock"], "round \(round)")
        }
        // Every round checked its file above; at full scale, kills must also have hit the
        // write itself (half of them are aimed at it), or the test proved little.
        // UserDefaults for comparison, at full scale and at 1 MB only (its 10 MB writes are slow).
        if TestScale.isFull, load.size == 1_000_000 {
            #expect(killedWhileWriting > 0, "no kill landed while a temporary file existed")
        }
        var report = """
            SIGKILL during \(load.size)-byte rewrites: FileStore \(load.rounds) kills, none left a broken file \
            (\(killedWhileWriting) hit the write itself; their temporary files were removed by the next write)
            """
        // UserDefaults for comparison, at full scale and at 1 MB only (its 10 MB writes are slow).
        if TestScale.isFull, load.size == 1_000_000 {
            let rounds = load.rounds * 3 / 10
            let broken = try await killUserDefaultsWriter(rounds: rounds, size: load.size)
            report += "; UserDefaults \(rounds) kills, \(broken) broken files"
        }
        print(report)
    }

    /// The same kills against UserDefaults, for comparison: how many times its file was left
    /// unreadable or without a whole value. Printed, not asserted.
    private func killUserDefaultsWriter(rounds: Int, size: Int) async throws -> Int {
        let folder = try ScratchFolder()
        let environment = ["HOME": folder.path, "XDG_CONFIG_HOME": folder.path]
        let suite = "FileStoreCrashTests-\(UUID().uuidString)"
        let file = folder.file("\(suite).plist")
        var broken = 0
        for _ in 0..<rounds {
            let child = try ChildProcess.launch(
                ["defaults-crash-write", suite, "big", String(size)], environment: environment)
            _ = await child.finish()
            let text = (try? Data(contentsOf: file))
                .flatMap { try? PropertyListSerialization.propertyList(from: $0, format: nil) as? [String: Any] }
                .flatMap { $0["big"] as? String }
            if let text, text.utf8.count == size, text.utf8.allSatisfy({ $0 == text.utf8.first }) { continue }
            broken += 1
        }
        return broken
    }
}
