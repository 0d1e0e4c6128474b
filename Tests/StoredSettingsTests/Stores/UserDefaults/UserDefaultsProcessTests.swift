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

// Linux only: these children keep their suites under a temporary XDG_CONFIG_HOME. On Apple
// platforms `cfprefsd` keeps every suite under the real home folder whatever HOME says, so the
// same tests there would write the user's own preferences.
#if !canImport(Darwin)

/// A temporary HOME and XDG_CONFIG_HOME for the children, and a suite name.
final class DefaultsSandbox: Sendable {
    let folder: ScratchFolder
    let suite = "StoredSettingsTests.\(UUID().uuidString)"

    init() throws {
        folder = try ScratchFolder()
        try FileManager.default.createDirectory(at: folder.file("config"), withIntermediateDirectories: true)
    }

    var environment: [String: String] {
        ["HOME": folder.path, "XDG_CONFIG_HOME": folder.file("config").path]
    }

    /// Runs `defaults-store SUITE arguments…` to its end and returns its facts; records an
    /// issue when the child does not exit with status 0.
    func run(
        _ arguments: String..., environment extra: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: String] {
        let child = try ChildProcess.launch(
            ["defaults-store", suite] + arguments, environment: environment.merging(extra) { $1 })
        let (exitCode, output) = await Self.finish(child)
        #expect(
            exitCode == 0, "defaults-store \(arguments.joined(separator: " ")) failed: \(output)",
            sourceLocation: sourceLocation)
        return facts(output)
    }

    /// Reads the rest of the child's output and reaps it with `waitpid`, on a thread of its
    /// own: not on the test's cooperative pool, and not on Dispatch's shared pool, which the
    /// crash and stress suites can keep busy for minutes.
    static func finish(_ child: ChildProcess) async -> (exitCode: Int32?, output: String) {
        await withCheckedContinuation { continuation in
            let thread = Thread {
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = read(child.output, &buffer, buffer.count)
                    if count > 0 {
                        bytes.append(contentsOf: buffer[0..<count])
                        continue
                    }
                    if count < 0, errno == EINTR { continue }
                    break
                }
                close(child.output)
                var status: Int32 = 0
                while waitpid(child.pid, &status, 0) < 0, errno == EINTR {}
                let exitCode: Int32? = status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
                continuation.resume(returning: (exitCode, String(decoding: bytes, as: UTF8.self)))
            }
            thread.start()
        }
    }
}

/// `UserDefaultsStore` across real processes: what one process commits, the next one reads.
@Suite(.timeLimit(TestScale.hangGuard))
struct UserDefaultsProcessTests {
    @Test(.timeLimit(TestScale.hangGuard))
    func setterWriteSurvivesANormalExit() async throws {
        let sandbox = try DefaultsSandbox()
        #expect(try await sandbox.run("set", "count", "7")["ok"] != nil)
        let read = try await sandbox.run("read", "count")
        #expect(read["value"] == "7")
        #expect(read["persisted"] == "7")
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func setterWriteSurvivesSIGKILLAfterTheSetterReturned() async throws {
        let sandbox = try DefaultsSandbox()
        let child = try ChildProcess.launch(
            ["defaults-store", sandbox.suite, "set-and-hold", "count", "42"], environment: sandbox.environment)
        // `set` is printed after the setter returned; the child then waits in pause().
        #expect(child.readLine() == "set")
        child.sendKill()
        let (exitCode, _) = await DefaultsSandbox.finish(child)
        #expect(exitCode == nil)
        let read = try await sandbox.run("read", "count")
        #expect(read["value"] == "42")
        #expect(read["persisted"] == "42")
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func setterThatCannotSaveTheDomainFileThrowsAndChangesNothing() async throws {
        let sandbox = try DefaultsSandbox()
        // A regular file where the configuration folder should be: no domain file can be written.
        try Data().write(to: sandbox.folder.file("not-a-folder"))
        let unwritable = ["XDG_CONFIG_HOME": sandbox.folder.file("not-a-folder/config").path]
        let set = try await sandbox.run("set", "count", "9", environment: unwritable)
        #expect(
            set["error"]?.hasPrefix("io Setting 'count' in UserDefaults domain \(sandbox.suite): ") == true, "\(set)")
        #expect(set["memory"] == "0")
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func setterNeverWritesOverADomainFileThatDoesNotParse() async throws {
        let sandbox = try DefaultsSandbox()
        let broken = Data(
            "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>theme</key>\n<string>dark</string>\n".utf8)
        let file = sandbox.folder.file("config/\(sandbox.suite).plist")
        try broken.write(to: file)
        let set = try await sandbox.run("set", "count", "9")
        #expect(
            set["error"]?.hasPrefix(
                "dataCorrupted Setting 'count' in UserDefaults domain \(sandbox.suite): \(file.path) does not parse")
                == true, "\(set)")
        #expect(set["memory"] == "0")
        #expect(try Data(contentsOf: file) == broken)
    }
}

#endif
