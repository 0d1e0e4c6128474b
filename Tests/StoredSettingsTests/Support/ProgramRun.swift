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

/// What a finished child program did: its exit code (`nil` when a signal ended it, then
/// `signal` says which), standard output and standard error.
struct ProgramRun: Sendable {
    var exitCode: Int32?
    var signal: Int32?
    var output: String
    var errors: String

    /// The built `stored` executable, next to `stored-test-helper`.
    static var storedPath: String? {
        guard let helper = ChildProcess.helperPath else { return nil }
        let path = ((helper as NSString).deletingLastPathComponent as NSString).appendingPathComponent("stored")
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Runs `executable` with `arguments` to its end, on a Dispatch thread (not the test's
    /// cooperative pool): the result arrives when the child exits (`waitpid`) and both pipes
    /// reach their end.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws
        -> ProgramRun
    {
        let outputPipe = try closeOnExecPipe()
        let errorPipe: [Int32]
        do { errorPipe = try closeOnExecPipe() } catch {
            close(outputPipe[0])
            close(outputPipe[1])
            throw error
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(outputPipe[1])
        close(errorPipe[1])
        guard code == 0 else {
            close(outputPipe[0])
            close(errorPipe[0])
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL)
        }
        let (outputFD, errorFD, child) = (outputPipe[0], errorPipe[0], pid)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let errors = Lock<[UInt8]>([])
                let group = DispatchGroup()
                DispatchQueue.global().async(group: group) { errors.withLock { $0 = readToEnd(errorFD) } }
                let output = readToEnd(outputFD)
                group.wait()
                var status: Int32 = 0
                while waitpid(child, &status, 0) < 0, errno == EINTR {}
                let signal = status & 0x7F
                continuation.resume(
                    returning: ProgramRun(
                        exitCode: signal == 0 ? (status >> 8) & 0xFF : nil,
                        signal: signal == 0 ? nil : signal,
                        output: String(decoding: output, as: UTF8.self),
                        errors: String(decoding: errors.value, as: UTF8.self)
                    ))
            }
        }
    }
}

/// Every byte until the end of `fd`, which is then closed.
private func readToEnd(_ fd: Int32) -> [UInt8] {
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(fd, &buffer, buffer.count)
        if count > 0 {
            bytes.append(contentsOf: buffer[0..<count])
            continue
        }
        if count < 0, errno == EINTR { continue }
        break
    }
    close(fd)
    return bytes
}

/// Runs `body` on a Dispatch thread and returns its result: for calls that might block (a
/// FIFO's `open`, a lock), so a hang holds a Dispatch thread, not the cooperative pool, and the
/// test's time limit still ends the test.
func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async {
            continuation.resume(with: Result { try body() })
        }
    }
}

/// Waits (`waitpid` with `WUNTRACED`) until the child `pid` has stopped; `false` when it
/// exited instead.
func waitUntilStopped(_ pid: pid_t) -> Bool {
    var status: Int32 = 0
    while waitpid(pid, &status, WUNTRACED) < 0 {
        if errno != EINTR { return false }
    }
    return status & 0xFF == 0x7F
}

/// Whether another open file description holds an `flock` on the file at `path`.
func isLockedByAnother(_ path: String) -> Bool {
    let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    if flock(fd, LOCK_EX | LOCK_NB) == 0 {
        _ = flock(fd, LOCK_UN)
        return false
    }
    return errno == EWOULDBLOCK
}

/// Starts a writer of a `size`-character value to `big` that stops itself (SIGSTOP) in the
/// middle of its write: holding the lock, with its temporary file in the folder. Decided by
/// events only: the child stops when its temporary file reaches 64 KiB (SIGXFSZ), and
/// `waitpid` reports the stop.
func writerStoppedMidWrite(_ url: URL, size: Int, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> ChildProcess?
{
    let child = try ChildProcess.launch(["stop-mid-write", url.path, "big", String(size), "65536"])
    let first = child.readLine()
    guard first == "ready", waitUntilStopped(child.pid) else {
        child.sendKill()
        let rest = child.readLine()
        Issue.record(
            "the writer did not stop in its write: \(first ?? "no output"), then \(rest ?? "nothing")",
            sourceLocation: sourceLocation)
        return nil
    }
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
    #expect(
        names.contains { $0.hasPrefix("." + url.lastPathComponent + ".tmp-") }, "no temporary file: \(names)",
        sourceLocation: sourceLocation)
    #expect(isLockedByAnother(url.path + ".lock"), "the writer does not hold the lock", sourceLocation: sourceLocation)
    return child
}
