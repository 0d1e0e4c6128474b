import Foundation
import Testing

/// Runs the built `stored` executable as a child process.
@Suite(.timeLimit(.hangGuard))
struct EndToEndTests {
    /// The `stored` executable in the build products folder that holds this test bundle.
    ///
    /// The test binary lives in that folder (Linux: `debug/StoredSettingsPackageTests.xctest`;
    /// macOS: inside `debug/StoredSettingsPackageTests.xctest/Contents/MacOS`), so the
    /// search starts next to it and walks up a few folders.
    static func storedExecutable() throws -> URL {
        var starts: [URL] = []
        starts += Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map(\.bundleURL)
        if let executable = Bundle.main.executableURL { starts.append(executable) }
        starts.append(URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL)
        var tried: [String] = []
        for start in starts {
            var folder = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = folder.appendingPathComponent("stored")
                tried.append(candidate.path)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                folder.deleteLastPathComponent()
            }
        }
        throw MissingExecutable(tried: tried)
    }

    struct MissingExecutable: Error, CustomStringConvertible {
        var tried: [String]
        var description: String {
            "The stored executable was not found next to the test bundle; build it with `swift build --build-tests` (tried: \(tried.joined(separator: ", ")))"
        }
    }

    /// Runs the executable in `folder` and returns its exit status and output.
    static func run(_ executable: URL, _ arguments: [String], in folder: URL) throws -> (
        status: Int32, output: String, errors: String
    ) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = folder
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

    @Test func writesThenReadsAFileWithTheBuiltExecutable() throws {
        let executable = try Self.storedExecutable()
        let folder = try TemporaryFolder()

        let write = try Self.run(executable, ["write", "./demo.json", "autoReload", "-bool", "true"], in: folder.url)
        #expect(write.status == 0, "\(write.errors)")
        #expect(write.output.isEmpty && write.errors.isEmpty)

        let read = try Self.run(executable, ["read", "./demo.json"], in: folder.url)
        #expect(read.status == 0, "\(read.errors)")
        #expect(read.output == "{\n  \"autoReload\": true\n}\n")

        let bad = try Self.run(executable, ["write", "./demo.json", "autoReload", "-int", "abc"], in: folder.url)
        #expect(bad.status == 65)
        #expect(
            bad.errors
                == "stored: Setting 'autoReload' in ./demo.json: expected Int, found string: \"abc\" is not a whole number.\n"
        )
        #expect(folder.text("demo.json") == "{\n  \"autoReload\": true\n}\n")
    }
}
