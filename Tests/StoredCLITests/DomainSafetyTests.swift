import Foundation
import StoredSettingsTestSupport
import Testing

// Linux only: each `stored` child keeps its suites under a temporary XDG_CONFIG_HOME. On Apple
// platforms `cfprefsd` keeps suites under the real home folder whatever HOME says.
#if !canImport(Darwin)

/// `stored --domain` as real processes: a domain file that does not parse is refused and left
/// as it is, and writes from several processes at once all land.
@Suite(.timeLimit(.hangGuard))
struct DomainSafetyTests {
    /// A temporary HOME and XDG_CONFIG_HOME, and a suite name.
    final class Sandbox: Sendable {
        let folder: TemporaryFolder
        let suite = "StoredCLITests.\(UUID().uuidString)"

        init() throws {
            folder = try TemporaryFolder()
            try FileManager.default.createDirectory(atPath: folder.path("config"), withIntermediateDirectories: true)
        }

        var domainFile: String { "config/\(suite).plist" }

        var environment: [String: String] {
            ["HOME": folder.url.path, "XDG_CONFIG_HOME": folder.path("config"), "PATH": "/usr/bin:/bin"]
        }

        /// Runs the built `stored` with `arguments` to its end.
        func stored(_ arguments: String...) throws -> (status: Int32, output: String, errors: String) {
            try stored(arguments: arguments)
        }

        func stored(arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
            let process = Process()
            process.executableURL = try EndToEndTests.storedExecutable()
            process.arguments = arguments
            process.environment = environment
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            try process.run()
            let outputData = output.fileHandleForReading.readDataToEndOfFile()
            let errorData = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (
                process.terminationStatus, String(decoding: outputData, as: UTF8.self),
                String(decoding: errorData, as: UTF8.self)
            )
        }
    }

    static let brokenDomain = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>theme</key>
        \t<string>dark</string>

        """

    @Test(arguments: [["read"], ["write", "count", "-int", "1"]])
    func domainFileThatIsAFIFOIsAnIOErrorNotAHang(verb: [String]) async throws {
        let sandbox = try Sandbox()
        #expect(mkfifo(sandbox.folder.path(sandbox.domainFile), 0o600) == 0)
        let arguments = [verb[0], "--domain", sandbox.suite] + verb.dropFirst()
        let run = try await onOwnThread { try sandbox.stored(arguments: arguments) }
        #expect(run.status == 74, "\(run.errors)")
        #expect(run.errors.contains("not a regular file but a FIFO"), "\(run.errors)")
    }

    @Test(
        .timeLimit(.hangGuard),
        arguments: [
            ["read"], ["read", "theme"], ["keys"], ["export"], ["write", "count", "-int", "1"], ["delete", "theme"],
            ["delete"],
        ])
    func domainFileThatDoesNotParseIsRefusedAndLeftAsItIs(verb: [String]) async throws {
        let sandbox = try Sandbox()
        try sandbox.folder.write(sandbox.domainFile, Self.brokenDomain)
        let arguments = [verb[0], "--domain", sandbox.suite] + verb.dropFirst()
        let run = try await onOwnThread { try sandbox.stored(arguments: arguments) }
        #expect(run.status == 65, "\(run.errors)")
        #expect(run.output.isEmpty)
        #expect(
            run.errors.hasPrefix(
                "stored: UserDefaults domain \(sandbox.suite): \(sandbox.folder.path(sandbox.domainFile)) does not parse as a property list"
            ), "\(run.errors)")
        #expect(run.errors.split(separator: "\n").count == 1)
        #expect(sandbox.folder.text(sandbox.domainFile) == Self.brokenDomain)
    }

    /// `{"k": [set(["x"])]}` as a binary property list: Foundation's bridging crashes on it.
    static let setInArray: Data = {
        let objects: [[UInt8]] = [
            [0xD1, 1, 2], [0x51, UInt8(ascii: "k")], [0xA1, 3], [0xC1, 4], [0x51, UInt8(ascii: "x")],
        ]
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets + [0, 0, 0, 0, 0, 0, 1, 1]
        for field in [UInt64(objects.count), 0, UInt64(table)] {
            bytes += (0..<8).reversed().map { UInt8(field >> ($0 * 8) & 0xFF) }
        }
        return Data(bytes)
    }()

    @Test(arguments: [["read"], ["write", "count", "-int", "1"]])
    func domainFileHoldingASetInsideAnArrayIsRefusedWithoutCrashing(verb: [String]) async throws {
        let sandbox = try Sandbox()
        let path = sandbox.folder.path(sandbox.domainFile)
        try Self.setInArray.write(to: URL(fileURLWithPath: path))
        let arguments = [verb[0], "--domain", sandbox.suite] + verb.dropFirst()
        let run = try await onOwnThread { try sandbox.stored(arguments: arguments) }
        #expect(run.status == 65, "\(run.errors)")
        #expect(run.errors.contains("a set"), "\(run.errors)")
        #expect(FileManager.default.contents(atPath: path) == Self.setInArray)
    }

    @Test(.timeLimit(.hangGuard))
    func eightProcessesWritingOneDomainKeepEveryKey() async throws {
        let sandbox = try Sandbox()
        let executable = try EndToEndTests.storedExecutable().path
        let writers = 8
        let writesEach = 20
        // Eight shells, each writing its own keys one `stored` process after another; a shell
        // prints each failed write and exits with the number of failures.
        let shells = try await onOwnThread { () throws -> [(status: Int32, output: String)] in
            var running: [(process: Process, output: Pipe)] = []
            for writer in 0..<writers {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = [
                    "-c",
                    """
                    failures=0
                    i=0
                    while [ $i -lt \(writesEach) ]; do
                        "$0" write --domain "$1" "w\(writer)-$i" -int "$i" || { echo "write w\(writer)-$i exited $?"; failures=$((failures + 1)); }
                        i=$((i + 1))
                    done
                    exit $failures
                    """, executable, sandbox.suite,
                ]
                process.environment = sandbox.environment
                let output = Pipe()
                process.standardOutput = output
                process.standardError = output
                process.standardInput = FileHandle.nullDevice
                try process.run()
                running.append((process, output))
            }
            return running.map { shell in
                let text = String(decoding: shell.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                shell.process.waitUntilExit()
                return (shell.process.terminationStatus, text)
            }
        }
        for shell in shells {
            #expect(shell.status == 0, "\(shell.output)")
        }
        let keys = try await onOwnThread { try sandbox.stored("keys", "--domain", sandbox.suite) }
        #expect(keys.status == 0, "\(keys.errors)")
        let expected = (0..<writers).flatMap { writer in (0..<writesEach).map { "w\(writer)-\($0)" } }
        #expect(keys.output.split(separator: "\n").map(String.init).sorted() == expected.sorted())
    }
}

#endif
