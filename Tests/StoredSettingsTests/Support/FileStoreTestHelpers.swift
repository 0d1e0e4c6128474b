import Foundation
import StoredSettings
import TestHelpers
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A fresh folder under the system's temporary folder, removed (with everything in it) when
/// released.
final class ScratchFolder: Sendable {
    let url: URL
    var path: String { url.path }

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "FileStoreTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// The names in the folder, sorted.
    func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).sorted()
    }

    deinit {
        _ = chmod(path, 0o700)
        try? FileManager.default.removeItem(at: url)
    }
}

/// Options for a store that does not check for changes in the background: most tests open
/// many stores and do not need the watcher.
let quietOptions = FileStore.Options(changeCheckInterval: nil)

/// A `stored-test-helper` child process, launched with `posix_spawn` so that tests can kill
/// it at any moment and run several at once.
struct ChildProcess: Sendable {
    let pid: pid_t
    /// The read end of the child's standard output.
    let output: Int32
    /// The write end of the child's standard input, when launched `withInput`; else -1 (the
    /// child inherits the test's standard input).
    var input: Int32 = -1

    /// The helper executable, built by `swift build --build-tests` next to the test binary.
    static let helperPath: String? = {
        if let explicit = ProcessInfo.processInfo.environment["STORED_TEST_HELPER"] { return explicit }
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        folders.append(Bundle.main.bundleURL)
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return folders.map { $0.appendingPathComponent("stored-test-helper").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Starts the helper with `arguments`; `environment` adds to (or replaces) the test's own.
    static func launch(
        _ arguments: [String], environment: [String: String] = [:], withInput: Bool = false
    ) throws -> ChildProcess {
        guard let helper = helperPath else {
            throw HelperMissing()
        }
        // Pipe ends are close-on-exec from the start, so no child inherits another child's
        // pipe (which would delay its end of output).
        let fds = try closeOnExecPipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        let input = withInput ? try closeOnExecPipe() : []
        if withInput { posix_spawn_file_actions_adddup2(&actions, input[0], 0) }
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        let argv = ([helper] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, helper, &actions, nil, argv, envp)
        close(fds[1])
        if withInput { close(input[0]) }
        guard code == 0 else {
            close(fds[0])
            if withInput { close(input[1]) }
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL)
        }
        return ChildProcess(pid: pid, output: fds[0], input: withInput ? input[1] : -1)
    }

    /// Writes `line` and a newline to the child's standard input (launched `withInput`).
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
    }

    /// Blocks until the child writes a line; `nil` at end of output.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(output, &byte, 1) == 1 {
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return nil
    }

    /// Sends `SIGKILL`.
    func sendKill() {
        _ = kill(pid, SIGKILL)
    }

    /// Closes the child's standard input, reads the rest of its output and waits for it to exit,
    /// on a Dispatch thread (not the test's cooperative pool).
    func finish() async -> (exitCode: Int32?, output: String) {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                // A child that reads its input to the end ends once it is closed.
                if input >= 0 { close(input) }
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = read(output, &buffer, buffer.count)
                    if count > 0 {
                        bytes.append(contentsOf: buffer[0..<count])
                        continue
                    }
                    if count < 0, errno == EINTR { continue }
                    break
                }
                close(output)
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                let exitCode: Int32? = status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
                continuation.resume(returning: (exitCode, String(decoding: bytes, as: UTF8.self)))
            }
        }
    }

    /// Launches, waits and returns the output; records an issue when the exit code is not 0.
    static func run(
        _ arguments: [String], environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> String {
        let child = try launch(arguments, environment: environment)
        let (exitCode, output) = await child.finish()
        #expect(
            exitCode == 0, "stored-test-helper \(arguments.joined(separator: " ")) failed: \(output)",
            sourceLocation: sourceLocation)
        return output
    }
}

/// A pipe whose ends are close-on-exec from the start, as `[read end, write end]`: see
/// `CloseOnExecPipe`.
func closeOnExecPipe() throws -> [Int32] {
    let (read, write) = try CloseOnExecPipe.make()
    return [read, write]
}

struct HelperMissing: Error, CustomStringConvertible {
    var description: String {
        "stored-test-helper was not found next to the test binary (\(Bundle.main.executableURL?.path ?? CommandLine.arguments[0])). "
            + "Build it with `swift build --build-tests`, or set STORED_TEST_HELPER to its path."
    }
}

/// The lines of a helper's output as `word → rest of line`.
func facts(_ output: String) -> [String: String] {
    var result: [String: String] = [:]
    for line in output.split(separator: "\n") {
        let parts = line.split(separator: " ", maxSplits: 1)
        if let word = parts.first { result[String(word)] = parts.count > 1 ? String(parts[1]) : "" }
    }
    return result
}

/// The permission bits of the file or folder at `path`.
func permissions(_ path: String) -> UInt32 {
    var info = stat()
    guard lstat(path, &info) == 0 else { return 0 }
    return UInt32(info.st_mode) & 0o7777
}

/// Collects the errors reported to `StorageErrorReporter` while `body` runs.
func reportedErrors<R>(_ body: () throws -> R) rethrows -> (R, [StorageError]) {
    let reports = Lock<[StorageError]>([])
    let result = try StorageErrorReporter.withHandler(
        { error in reports.withLock { $0.append(error) } }, operation: body)
    return (result, reports.value)
}

#if os(Linux)
/// Waits until this process waits for an `flock` of the file at `path`, as `/proc/locks`
/// lists it (a line `-> FLOCK … <pid> <device>:<inode> …`).
func waitUntilBlockedOnLock(of path: String) async {
    var info = stat()
    guard stat(path, &info) == 0 else {
        Issue.record("no lock file at \(path)")
        return
    }
    let mark = " \(getpid()) "
    let inode = ":\(info.st_ino) "
    while true {
        let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
        let blocked = locks.split(separator: "\n").contains {
            $0.contains("-> FLOCK") && $0.contains(mark) && $0.contains(inode)
        }
        if blocked { return }
        await Task.yield()
    }
}
#endif

/// Launches `count` children running `migrate TARGET LOG` while this process holds `lockPath`
/// (the lock the migrations take), so that all of them read version 1 and find migrations
/// pending, then queue for the lock together; returns each child's output facts once it exited 0.
func migrateTogether(_ count: Int, target: String, log: URL, holding lockPath: String) async throws -> [[String:
    String]]
{
    let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    #expect(lock >= 0 && flock(lock, LOCK_EX) == 0)
    let children = try (0..<count).map { _ in try ChildProcess.launch(["migrate", target, log.path]) }
    for child in children {
        #expect(child.readLine() == "opened")
    }
    _ = flock(lock, LOCK_UN)
    close(lock)
    var outputs: [[String: String]] = []
    for child in children {
        let (exitCode, output) = await child.finish()
        #expect(exitCode == 0, "\(output)")
        outputs.append(facts(output))
    }
    return outputs
}
