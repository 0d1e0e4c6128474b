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

/// Processes started with standard descriptors closed (a daemon, cron, `exec <&- >&-`) or with
/// an environment that is not UTF-8: the package never opens a file at 0, 1 or 2, and never
/// reads a variable with U+FFFD in place of its bytes.
@Suite(.timeLimit(.hangGuard))
struct StandardDescriptorTests {
    /// How a child ended and what it wrote.
    struct Ending: CustomStringConvertible {
        var status: Int32
        var output: String
        var errors: String
        var description: String { "exit \(status); output: \(output); errors: \(errors)" }
    }

    /// Runs `executable` with `arguments` and exactly `environment` (raw `NAME=VALUE` bytes),
    /// with the descriptors in `closed` (among 0 and 1) closed; the others are pipes (standard
    /// input: `/dev/null`).
    static func run(
        _ executable: URL, _ arguments: [String], environment: [[UInt8]], closing closed: Set<Int32> = []
    ) throws -> Ending {
        let outputPipe = try CloseOnExecPipe.make()
        let errorPipe = try CloseOnExecPipe.make()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if closed.contains(0) {
            posix_spawn_file_actions_addclose(&actions, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if closed.contains(1) {
            posix_spawn_file_actions_addclose(&actions, 1)
        } else {
            posix_spawn_file_actions_adddup2(&actions, outputPipe.write, 1)
        }
        posix_spawn_file_actions_adddup2(&actions, errorPipe.write, 2)
        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] =
            environment.map { bytes in
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
                for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
                copy[bytes.count] = 0
                return copy
            } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { pointer?.deallocate() }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, executable.path, &actions, nil, argv, envp)
        close(outputPipe.write)
        close(errorPipe.write)
        let output = FileHandle(fileDescriptor: outputPipe.read, closeOnDealloc: true)
        let errors = FileHandle(fileDescriptor: errorPipe.read, closeOnDealloc: true)
        guard code == 0 else { throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL) }
        // Small outputs: standard error is read after standard output without filling its pipe.
        let outputText = String(decoding: output.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.readDataToEndOfFile(), as: UTF8.self)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let ended = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Ending(status: ended, output: outputText, errors: errorText)
    }

    /// `NAME=VALUE` as bytes.
    static func variable(_ name: String, _ value: String) -> [UInt8] { Array("\(name)=\(value)".utf8) }

    /// The variables of a daybook sandbox in `folder`.
    static func daybookEnvironment(_ folder: URL) -> [[UInt8]] {
        [
            variable("HOME", folder.path), variable("XDG_CONFIG_HOME", folder.appendingPathComponent("config").path),
            variable("XDG_DATA_HOME", folder.appendingPathComponent("data").path), variable("PATH", "/usr/bin:/bin"),
        ]
    }

    /// With standard output closed, the lock file would be descriptor 1 and receive the status
    /// text; the documented ending is 74 with the file untouched.
    @Test func daybookStatusWithStandardOutputClosedExitsWith74AndWritesNothingIntoTheLock() async throws {
        let sandbox = try DaybookTests.Sandbox()
        let executable = try DaybookTests.executable()
        let environment = Self.daybookEnvironment(sandbox.folder)
        let ending = try await onOwnThread {
            try Self.run(executable, ["status"], environment: environment, closing: [1])
        }
        #expect(ending.status == 74, "\(ending)")
        #expect(ending.errors.contains("standard output"), "\(ending)")
        let lock = sandbox.settingsFile.path + ".lock"
        let lockBytes = (try? Data(contentsOf: URL(fileURLWithPath: lock))) ?? Data()
        #expect(lockBytes.isEmpty, "the lock file holds: \(String(decoding: lockBytes, as: UTF8.self))")
    }

    /// Standard output closed (and input, for the second argument): a lock or temporary file
    /// opened at 1, even for an instant, would receive another thread's output, and a
    /// temporary file holding it would fail its write or be renamed over the settings.
    @Test(arguments: [[1], [0, 1]] as [Set<Int32>])
    func writesKeepTheFileValidAndSucceedWhileAnotherThreadPrintsWithStandardOutputClosed(
        closing closed: Set<Int32>
    ) async throws {
        let sandbox = try DaybookTests.Sandbox()
        let helper = try EndToEndTests.storedExecutable().deletingLastPathComponent()
            .appendingPathComponent("stored-test-helper")
        let path = sandbox.folder.appendingPathComponent("settings.json").path
        let ending = try await onOwnThread {
            try Self.run(helper, ["write-while-printing", path, "1000"], environment: [], closing: closed)
        }
        #expect(ending.status == 0, "\(ending)")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let object = try? JSONSerialization.jsonObject(with: data) as? [String: Int]
        #expect(object == ["count": 999], "\(String(decoding: data, as: UTF8.self))")
    }

    /// `DAYBOOK_TOKEN=s3\xffcret` is a variable that is not UTF-8: daybook stops, naming it,
    /// as the library's rule says, and never reads `s3\u{FFFD}cret`.
    @Test func daybookStopsOnAVariableThatIsNotUTF8NamingIt() async throws {
        let sandbox = try DaybookTests.Sandbox()
        let executable = try DaybookTests.executable()
        let environment =
            Self.daybookEnvironment(sandbox.folder) + [Array("DAYBOOK_TOKEN=s3".utf8) + [0xFF] + Array("cret".utf8)]
        let ending = try await onOwnThread { try Self.run(executable, ["status"], environment: environment) }
        #expect(ending.status == 65, "\(ending)")
        #expect(ending.errors.contains("DAYBOOK_TOKEN") && ending.errors.contains("not valid UTF-8"), "\(ending)")
        #expect(!ending.output.contains("s3\u{FFFD}cret"), "\(ending)")
    }

    /// `stored` finds the UserDefaults suites below `HOME`: one that is not UTF-8 stops it with
    /// 65 naming it, as it stops `FileStore(application:)`, before Foundation reads it (its
    /// preferences code traps on such a `HOME`), and nothing is created at the path spelt with
    /// U+FFFD.
    @Test func storedDomainsStopOnAHomeThatIsNotUTF8NamingIt() async throws {
        let sandbox = try DaybookTests.Sandbox()
        let stored = try EndToEndTests.storedExecutable()
        let home = Array(sandbox.folder.appendingPathComponent("home").path.utf8) + [0xFF]
        let environment = [Array("HOME=".utf8) + home, Self.variable("PATH", "/usr/bin:/bin")]
        for arguments in [["domains"], ["write", "--domain", "suite", "k", "-string", "v"]] {
            let ending = try await onOwnThread { try Self.run(stored, arguments, environment: environment) }
            #expect(ending.status == 65, "\(arguments): \(ending)")
            #expect(ending.errors.contains("HOME") && ending.errors.contains("not valid UTF-8"), "\(ending)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).isEmpty)
    }

    /// A `HOME` that is not UTF-8 names no folder daybook may use: it stops with 65 naming it
    /// and creates nothing at the path spelt with U+FFFD.
    @Test func daybookStopsOnAHomeThatIsNotUTF8NamingIt() async throws {
        let sandbox = try DaybookTests.Sandbox()
        let executable = try DaybookTests.executable()
        let home = Array(sandbox.folder.appendingPathComponent("home").path.utf8) + [0xFF]
        let environment = [Array("HOME=".utf8) + home, Self.variable("PATH", "/usr/bin:/bin")]
        let ending = try await onOwnThread { try Self.run(executable, ["write", "hello"], environment: environment) }
        #expect(ending.status == 65, "\(ending)")
        #expect(ending.errors.contains("HOME"), "\(ending)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.folder.path).isEmpty)
    }
}
