import Foundation
import StoredSettings
import Testing

/// Several processes writing one file lose nothing; UserDefaults runs the same loads for
/// comparison (printed, not asserted).
struct FileStoreProcessTests {
    @Test func fourProcessesKeepEveryKeyAndEveryIncrement() async throws {
        let folder = try ScratchFolder()
        let keysFile = folder.file("keys.json").path
        let counterFile = folder.file("counter.json").path
        // UserDefaults keeps suites under the home folder: point it at the scratch folder.
        let environment = ["HOME": folder.path, "XDG_CONFIG_HOME": folder.file("config").path]
        let suite = "FileStoreProcessTests-\(UUID().uuidString)"

        async let fileKeys = runFour { ["write-keys", keysFile, "p\($0)", "100"] }
        async let fileCounts = runFour { _ in ["increment", counterFile, "count", "100"] }
        _ = try await (fileKeys, fileCounts)

        let keys = try FileStore(url: URL(fileURLWithPath: keysFile), options: quietOptions).keys()
        let count = try FileStore(url: URL(fileURLWithPath: counterFile), options: quietOptions).value(forKey: "count")
        #expect(keys.count == 400)
        #expect(count == .int(400))

        _ = try await runFour(environment: environment) { ["defaults-write-keys", suite, "p\($0)", "100"] }
        _ = try await runFour(environment: environment) { _ in ["defaults-increment", suite + "-counter", "count", "100"] }
        let defaultsKeys = facts(try await ChildProcess.run(["defaults-read", suite, "p", "count"], environment: environment))
        let defaultsCount = facts(try await ChildProcess.run(["defaults-read", suite + "-counter", "p", "count"], environment: environment))

        print("""
            4 processes × 100 writes each  FileStore   UserDefaults
            distinct keys kept (of 400)    \(keys.count)         \(defaultsKeys["keys"] ?? "?")
            increments kept (of 400)       \(count.flatMap { try? Int(storedValue: $0) }.map(String.init) ?? "none")         \(defaultsCount["value"] ?? "?")
            """)
    }

    /// Runs four helpers at once with the arguments for each index; returns their outputs.
    private func runFour(
        environment: [String: String] = [:], _ arguments: @Sendable (Int) -> [String]
    ) async throws -> [String] {
        let children = try (0..<4).map { try ChildProcess.launch(arguments($0), environment: environment) }
        var outputs: [String] = []
        for child in children {
            let (exitCode, output) = await child.finish()
            #expect(exitCode == 0, "\(output)")
            outputs.append(output)
        }
        return outputs
    }
}
