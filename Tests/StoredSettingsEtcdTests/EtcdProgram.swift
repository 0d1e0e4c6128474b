import Foundation
import StoredSettings
import TestHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child program of the etcd tests: `stored`, `etcd-test-helper`, `etcdctl`.
struct EtcdProgram: Sendable {
    let pid: pid_t
    /// The read end of the child's standard output.
    let output: Int32
    let errors: Int32

    /// What a finished program did.
    struct Run: Sendable {
        var exitCode: Int32?
        var output: String
        var errors: String
    }

    /// A built executable of this package (`stored`, `etcd-test-helper`), beside the tests.
    static func built(_ name: String) throws -> String {
        var folders: [URL] = []
        if let executable = Bundle.main.executableURL { folders.append(executable.deletingLastPathComponent()) }
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        folders.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            folders.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let path = folders.map({ $0.appendingPathComponent(name).path }).first(where: {
            FileManager.default.isExecutableFile(atPath: $0)
        }) {
            return path
        }
        throw EtcdCluster.Failure(
            description: "\(name) was not found beside the test binary; build with `swift build --build-tests`")
    }

    /// `name` on the PATH.
    static func onPath(_ name: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)")
        {
            return "\(folder)/\(name)"
        }
        throw EtcdCluster.Failure(description: "\(name) is not installed (apt-get install etcd-client)")
    }

    static func launch(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> EtcdProgram
    {
        let path = executable.hasPrefix("/") ? executable : try onPath(executable)
        let (outputRead, outputWrite) = try CloseOnExecPipe.make()
        let (errorRead, errorWrite) = try CloseOnExecPipe.make()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, outputWrite, 1)
        posix_spawn_file_actions_adddup2(&actions, errorWrite, 2)
        var variables = ProcessInfo.processInfo.environment
        variables.merge(environment) { $1 }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, path, &actions, nil, argv, envp)
        close(outputWrite)
        close(errorWrite)
        guard code == 0 else {
            close(outputRead)
            close(errorRead)
            throw EtcdCluster.Failure(description: "cannot start \(path): \(String(cString: strerror(code)))")
        }
        return EtcdProgram(pid: pid, output: outputRead, errors: errorRead)
    }

    /// Runs a program to its end.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws
        -> Run
    {
        try await launch(executable, arguments, environment: environment).finish()
    }

    /// Blocks until the child writes a line; `nil` at end of output.
    func readLine() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(output, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { return nil }
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }

    /// The next line, read on a Dispatch thread (not the test's cooperative pool).
    func nextLine() async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: readLine()) }
        }
    }

    /// Reads both outputs to their end and waits for the child (`waitpid`), off the pool.
    func finish() async -> Run {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let errorText = Lock<[UInt8]>([])
                let group = DispatchGroup()
                DispatchQueue.global().async(group: group) { errorText.withLock { $0 = Self.readToEnd(errors) } }
                let outputBytes = Self.readToEnd(output)
                group.wait()
                var status: Int32 = 0
                while waitpid(pid, &status, 0) < 0, errno == EINTR {}
                continuation.resume(
                    returning: Run(
                        exitCode: status & 0x7F == 0 ? (status >> 8) & 0xFF : nil,
                        output: String(decoding: outputBytes, as: UTF8.self),
                        errors: String(decoding: errorText.value, as: UTF8.self)
                    ))
            }
        }
    }

    private static func readToEnd(_ fd: Int32) -> [UInt8] {
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
}
