import Foundation
import StoredSettings
import Testing

/// Several processes writing one file lose nothing. `swift test` runs 4 processes × 50 writes;
/// with `STORED_SETTINGS_FULL_SCALE=1` (the reliability step of `.ci/run`) 8 × 500, and
/// UserDefaults runs the same loads for comparison (printed, not asserted).
@Suite(.timeLimit(.minutes(20)))
struct FileStoreProcessTests {
    static let processes = TestScale.pick(quick: 4, full: 8)
    static let writes = TestScale.pick(quick: 50, full: 500)

    @Test func processesKeepEveryKeyAndEveryIncrement() async throws {
        let folder = try ScratchFolder()
        let keysFile = folder.file("keys.json").path
        let counterFile = folder.file("counter.json").path
        // UserDefaults keeps suites under the home folder: point it at the scratch folder.
        let environment = ["HOME": folder.path, "XDG_CONFIG_HOME": folder.file("config").path]
        let suite = "FileStoreProcessTests-\(UUID().uuidString)"

        let (processes, writes) = (Self.processes, Self.writes)
        let total = processes * writes
        async let fileKeys = runAll { ["write-keys", keysFile, "p\($0)", String(writes)] }
        async let fileCounts = runAll { _ in ["increment", counterFile, "count", String(writes)] }
        _ = try await (fileKeys, fileCounts)

        let keys = try FileStore(url: URL(fileURLWithPath: keysFile), options: quietOptions).keys()
        let count = try FileStore(url: URL(fileURLWithPath: counterFile), options: quietOptions).value(forKey: "count")
        #expect(keys.count == total)
        #expect(Set(keys) == Set((0..<processes).flatMap { process in (0..<writes).map { "p\(process)-\($0)" } }))
        #expect(count == .int(Int64(total)))
        guard TestScale.isFull else { return }

        _ = try await runAll(environment: environment) { ["defaults-write-keys", suite, "p\($0)", String(writes)] }
        _ = try await runAll(environment: environment) { _ in
            ["defaults-increment", suite + "-counter", "count", String(writes)]
        }
        let defaultsKeys = facts(
            try await ChildProcess.run(["defaults-read", suite, "p", "count"], environment: environment))
        let defaultsCount = facts(
            try await ChildProcess.run(["defaults-read", suite + "-counter", "p", "count"], environment: environment))

        // The comparison is printed, not asserted, but it must have been measured.
        #expect(defaultsKeys["keys"].flatMap { Int($0) } != nil && defaultsCount["value"].flatMap { Int($0) } != nil)
        print(
            """
            \(processes) processes × \(writes) writes each  FileStore   UserDefaults
            distinct keys kept (of \(total))    \(keys.count)         \(defaultsKeys["keys"] ?? "?")
            increments kept (of \(total))       \(count.flatMap { try? Int(storedValue: $0) }.map(String.init) ?? "none")         \(defaultsCount["value"] ?? "?")
            """)
    }

    /// Runs ``processes`` helpers at once with the arguments for each index; returns their outputs.
    private func runAll(
        environment: [String: String] = [:], _ arguments: @Sendable (Int) -> [String]
    ) async throws -> [String] {
        let children = try (0..<Self.processes).map { try ChildProcess.launch(arguments($0), environment: environment) }
        var outputs: [String] = []
        for child in children {
            let (exitCode, output) = await child.finish()
            #expect(exitCode == 0, "\(output)")
            outputs.append(output)
        }
        return outputs
    }
}
