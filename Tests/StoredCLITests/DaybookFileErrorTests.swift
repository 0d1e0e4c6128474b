import Foundation
import Testing

/// How real `daybook` processes report a settings file they cannot use: bad data exits 65, a
/// read-only file system names itself; and an enum value from the environment is trimmed.
@Suite(.timeLimit(.hangGuard))
struct DaybookFileErrorTests {
    typealias Sandbox = DaybookTests.Sandbox

    private func writeSettings(_ data: Data, in sandbox: Sandbox) throws {
        try FileManager.default.createDirectory(
            at: sandbox.settingsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: sandbox.settingsFile)
    }

    private func expectDataError(_ sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) throws {
        for arguments in [["status"], ["config", "list"]] {
            let run = try sandbox.run(arguments)
            #expect(run.status == 65, "\(arguments): \(run.error)", sourceLocation: sourceLocation)
            #expect(run.error.contains(sandbox.settingsFile.path), "\(run.error)", sourceLocation: sourceLocation)
            #expect(run.error.filter { $0 == "\n" }.count == 1, "\(run.error)", sourceLocation: sourceLocation)
        }
    }

    @Test func aSettingsFileNestedTooDeepExits65() throws {
        let sandbox = try Sandbox()
        let nested = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        try writeSettings(Data(#"{"other": \#(nested)}"#.utf8), in: sandbox)
        try expectDataError(sandbox)
    }

    @Test func aSettingsFileTooLargeExits65() throws {
        let sandbox = try Sandbox()
        try writeSettings(Data("{}".utf8), in: sandbox)
        // A sparse file past the 16 MiB the store reads: refused by its size before a byte is read.
        let handle = try FileHandle(forWritingTo: sandbox.settingsFile)
        try handle.truncate(atOffset: 17 * 1024 * 1024)
        try handle.close()
        try expectDataError(sandbox)
    }

    /// `config path` names the file that stops the tool, so a user can find it and mend it;
    /// every other subcommand stops with the problem and leaves the file as it is.
    @Test func aSettingsFileThatDoesNotParseStillHasItsPathPrinted() throws {
        let sandbox = try Sandbox()
        let broken = Data("{\"pageSize\": 3,\n".utf8)
        try writeSettings(broken, in: sandbox)
        let path = try sandbox.run("config", "path")
        #expect(path.status == 0, "\(path.error)")
        #expect(path.output == sandbox.settingsFile.path + "\n")
        #expect(path.error.hasPrefix("daybook config: warning: \(sandbox.settingsFile.path): "), "\(path.error)")
        for arguments in [
            ["config", "set", "pageSize", "4"], ["config", "unset", "pageSize"], ["config", "reset", "--all"],
        ] {
            let run = try sandbox.run(arguments)
            #expect(run.status == 65, "\(arguments): \(run.error)")
            #expect(run.error.contains(sandbox.settingsFile.path), "\(arguments): \(run.error)")
            #expect(run.error.filter { $0 == "\n" }.count == 1, "\(arguments): \(run.error)")
        }
        try expectDataError(sandbox)
        #expect(try Data(contentsOf: sandbox.settingsFile) == broken)
    }

    @Test func anEnumValueFromTheEnvironmentIsTrimmedLikeNumbersAndBooleans() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(
            "config", "get", "format", environment: ["DAYBOOK_FORMAT": " markdown\n", "DAYBOOK_PAGE_SIZE": " 3 "])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output == "markdown\n")
        #expect(run.error == "")
    }

    /// Whether this machine lets an unprivileged user namespace mount (Linux with user
    /// namespaces enabled): the read-only file system test needs it.
    static let canMountInANamespace: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-rm", "sh", "-c", "mount -t tmpfs none /mnt"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// `daybook ARGUMENTS` with the sandbox's config folder bind-mounted read-only, in a
    /// private mount namespace.
    private func runOnAReadOnlyMount(_ sandbox: Sandbox, _ arguments: [String]) throws -> DaybookTests.Run {
        let folder = sandbox.folder.appendingPathComponent("config").path
        let script = #"mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@""#
        let process = try sandbox.process([])
        let daybook = try DaybookTests.executable().path
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
        process.arguments = ["-rm", "sh", "-c", script, "sh", folder, daybook] + arguments
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return DaybookTests.Run(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData, as: UTF8.self))
    }

    @Test(.enabled(if: canMountInANamespace))
    func aWriteToAReadOnlyFileSystemSaysSoNamingThePath() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run("config", "set", "pageSize", "3").status == 0)
        let before = try Data(contentsOf: sandbox.settingsFile)
        let run = try runOnAReadOnlyMount(sandbox, ["config", "set", "pageSize", "4"])
        #expect(run.status == 74, "\(run.error)")
        #expect(run.error.contains("read-only file system"), "\(run.error)")
        #expect(run.error.contains(sandbox.settingsFile.path), "\(run.error)")
        #expect(!run.error.contains("may not write"), "\(run.error)")
        #expect(try Data(contentsOf: sandbox.settingsFile) == before)
    }
}
