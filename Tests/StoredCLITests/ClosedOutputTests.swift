import Foundation
import StoredSettings
import StoredSettingsTestSupport
import TestHelpers
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `stored` and `daybook` whose standard output is a pipe nobody reads (`stored help | true`):
/// an I/O error with exit status 74 and one line on standard error, never death by `SIGPIPE`.
@Suite(.timeLimit(.hangGuard))
struct ClosedOutputTests {
    /// How a child ended: its exit status, or the signal that killed it.
    struct Ending: Equatable, CustomStringConvertible {
        var exitStatus: Int32?
        var signal: Int32?
        var errors: String

        var description: String {
            exitStatus.map { "exit \($0): \(errors)" } ?? "killed by signal \(signal ?? -1): \(errors)"
        }
    }

    /// Runs `executable` with `arguments` and `environment`, its standard output the write end
    /// of a pipe whose read end is closed before the child starts, and waits for it with
    /// `waitpid`.
    static func runWithClosedOutput(_ executable: URL, _ arguments: [String], environment: [String: String]) throws
        -> Ending
    {
        // Close-on-exec from the start, so children that other tests start meanwhile do not
        // inherit an end (which would keep the standard-error pipe open after this child
        // exits); dup2 onto 1 and 2 clears the flag for this child's own copies.
        let outputPipe = try CloseOnExecPipe.make()
        let errorPipe = try CloseOnExecPipe.make()
        let output = [outputPipe.read, outputPipe.write]
        let errors = [errorPipe.read, errorPipe.write]
        // No reader from the start: the child's first write to standard output fails with EPIPE.
        close(output[0])
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        posix_spawn_file_actions_addclose(&actions, errors[0])
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // The child starts with SIGPIPE at its default action, as from a shell.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        close(output[1])
        close(errors[1])
        guard code == 0 else {
            close(errors[0])
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL)
        }
        let errorText = String(
            decoding: FileHandle(fileDescriptor: errors[0], closeOnDealloc: true).readDataToEndOfFile(), as: UTF8.self)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        if status & 0x7F == 0 {
            return Ending(exitStatus: (status >> 8) & 0xFF, signal: nil, errors: errorText)
        }
        return Ending(exitStatus: nil, signal: status & 0x7F, errors: errorText)
    }

    @Test(.timeLimit(.hangGuard))
    func storedHelpIntoAClosedPipeIsAnIOError() async throws {
        let folder = try TemporaryFolder()
        let executable = try EndToEndTests.storedExecutable()
        let environment = ["HOME": folder.url.path, "XDG_CONFIG_HOME": folder.path("config")]
        let ending = try await onOwnThread {
            try Self.runWithClosedOutput(executable, ["help"], environment: environment)
        }
        #expect(ending.exitStatus == 74, "\(ending)")
        #expect(ending.errors.hasPrefix("stored: standard output: cannot write: "), "\(ending)")
        #expect(ending.errors.split(separator: "\n").count == 1, "\(ending)")
    }

    @Test(.timeLimit(.hangGuard))
    func storedReadIntoAClosedPipeIsAnIOErrorAndLeavesTheFile() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("demo.json", "{\n  \"theme\": \"dark\"\n}\n")
        let executable = try EndToEndTests.storedExecutable()
        let environment = ["HOME": folder.url.path, "XDG_CONFIG_HOME": folder.path("config")]
        let ending = try await onOwnThread {
            try Self.runWithClosedOutput(executable, ["read", path], environment: environment)
        }
        #expect(ending.exitStatus == 74, "\(ending)")
        #expect(folder.text("demo.json") == "{\n  \"theme\": \"dark\"\n}\n")
    }

    @Test(.timeLimit(.hangGuard), arguments: [["help"], ["status"], ["config", "list"]])
    func daybookIntoAClosedPipeIsAnIOError(arguments: [String]) async throws {
        let sandbox = try DaybookTests.Sandbox()
        let executable = try DaybookTests.executable()
        let environment = [
            "HOME": sandbox.folder.path,
            "XDG_CONFIG_HOME": sandbox.folder.appendingPathComponent("config").path,
            "XDG_DATA_HOME": sandbox.folder.appendingPathComponent("data").path,
        ]
        let ending = try await onOwnThread {
            try Self.runWithClosedOutput(executable, arguments, environment: environment)
        }
        #expect(ending.exitStatus == 74, "\(ending)")
        #expect(ending.errors.hasPrefix("daybook: standard output: cannot write: "), "\(ending)")
    }
}
