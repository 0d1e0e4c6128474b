import Foundation
import StoredCLI
import StoredSettings
import StoredSettingsCommandLine
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stored` against hostile arguments and targets: one line on standard error (however odd the
/// text it quotes), the sysexits code, and the settings file unchanged byte for byte.
@Suite(.timeLimit(.hangGuard))
struct StoredToolEdgeCaseTests {
    static let seed = "{\n  \"count\": 3,\n  \"name\": \"ada\"\n}\n"

    /// A failing command on `settings.json` (written in `folder` first) and the code it must exit with.
    struct Failing: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var code: ExitCode
        var input = ""
        var testDescription: String { arguments.joined(separator: " ").debugDescription }
    }

    static let failing: [Failing] = [
        Failing(arguments: ["write", "S", "count", "-int", "12\n3"], code: .dataError),
        Failing(arguments: ["write", "S", "count", "-int", "\u{1B}[2J"], code: .dataError),
        Failing(arguments: ["write", "S", "count", "-int", "1e3"], code: .dataError),
        Failing(arguments: ["write", "S", "count", "-int", "9223372036854775808000"], code: .dataError),
        Failing(arguments: ["write", "S", "x", "-float", "0x10"], code: .dataError),
        Failing(arguments: ["write", "S", "x", "-float", "1e400"], code: .dataError),
        Failing(arguments: ["write", "S", "x", "-float", "nan"], code: .dataError),
        Failing(arguments: ["write", "S", "x", "-date", "2026-02-30T00:00:00Z"], code: .dataError),
        Failing(arguments: ["write", "S", "x", "-date", "garbage"], code: .dataError),
        Failing(arguments: ["write", "S", "x", "-data", "abc"], code: .dataError),
        Failing(arguments: ["write", "S", "x", "-data", "0xzz"], code: .dataError),
        Failing(arguments: ["write", "S", "x", "-json", "{\"a\": null}"], code: .dataError),
        Failing(arguments: ["write", "S", "x", "-json", "-"], code: .dataError, input: "[1,\n"),
        Failing(arguments: ["write", "S", "x", "-json", String(repeating: "[", count: 100_000)], code: .dataError),
        Failing(arguments: ["write", "S", "", "v"], code: .usage),
        Failing(arguments: ["write", "S", "a\nb", "v"], code: .usage),
        Failing(arguments: ["write", "S", "k"], code: .usage),
        Failing(arguments: ["write", "S", "k", "-int"], code: .usage),
        Failing(arguments: ["write", "S", "k", "-long", "1"], code: .usage),
        Failing(arguments: ["write", "S", "k", "-int", "1", "2"], code: .usage),
        Failing(arguments: ["read", "S", "count", "extra"], code: .usage),
        Failing(arguments: ["read", "S", "missing"], code: .notFound),
        Failing(arguments: ["delete", "S", "missing"], code: .notFound),
        Failing(arguments: ["keys", "S", "extra"], code: .usage),
        Failing(arguments: ["export", "S", "--format", "xml"], code: .usage),
        Failing(arguments: ["export", "S", "--format"], code: .usage),
        Failing(arguments: ["import", "S"], code: .usage),
        Failing(arguments: ["import", "S", "-"], code: .dataError, input: "[1, 2]"),
        Failing(arguments: ["import", "S", "-"], code: .dataError, input: "{\"\": 1}"),
        Failing(arguments: ["import", "S", "-"], code: .dataError, input: "{\"a\": null}"),
        Failing(arguments: ["import", "S", "no-such-file.json"], code: .noInput),
        Failing(arguments: ["bogus\u{1B}[31m", "S"], code: .usage),
        Failing(arguments: ["read", "--domain", "a\u{1B}]0;title\u{07}"], code: .usage),
        Failing(arguments: ["read", "--domain", "../x"], code: .usage),
        Failing(arguments: ["read", "--domain", "a/b"], code: .usage),
        Failing(arguments: ["read", "--domain", ""], code: .usage),
        Failing(arguments: ["read", "--domain"], code: .usage),
        Failing(arguments: ["--verbose", "read", "S"], code: .usage),
        Failing(arguments: [], code: .usage),
    ]

    @Test(arguments: failing)
    func failureIsOneLineWithItsExitCodeAndLeavesTheFileUnchanged(_ failing: Failing) throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("settings.json", Self.seed)
        let arguments = failing.arguments.map { $0 == "S" ? path : $0 }
        let run = stored(arguments: arguments, input: failing.input)
        expectFailure(run, failing.code)
        #expect(
            !run.errors.dropLast().contains { $0.isNewline || $0 == "\u{1B}" || $0 == "\u{07}" },
            "\(run.errors.debugDescription)")
        #expect(folder.text("settings.json") == Self.seed)
    }

    @Test func invalidUTF8OnStandardInputIsBadDataAndChangesNothing() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("settings.json", Self.seed)
        var output = ""
        var errors = ""
        let code = StoredCLI.run(
            arguments: ["write", path, "x", "-json", "-"], input: { Data([0x22, 0xFF, 0xFE, 0x22]) },
            output: &output, error: &errors, environment: [:]
        )
        #expect(code == .dataError)
        #expect(errors.split(separator: "\n").count == 1)
        #expect(folder.text("settings.json") == Self.seed)
    }

    @Test func tenMegabytesOnStandardInputAreStored() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("big.json")
        let big = String(repeating: "x", count: 10_000_000)
        expectSuccess(stored(arguments: ["write", path, "blob", "-json", "-"], input: "\"\(big)\""))
        let run = stored("read", path, "blob")
        expectSuccess(run)
        #expect(run.output == "\"\(big)\"\n")
    }

    @Test func readOfADateOrDataKeyPrintsValidJSON() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("s.json")
        expectSuccess(stored("write", path, "when", "-date", "2026-01-01t10:00:00.25z"))
        expectSuccess(stored("write", path, "bytes", "-data", "00ff10"))
        for key in ["when", "bytes"] {
            let run = stored("read", path, key)
            expectSuccess(run)
            let parsed = try JSONSerialization.jsonObject(with: Data(run.output.utf8), options: [.fragmentsAllowed])
            #expect(parsed is String, "\(run.output)")
        }
        #expect(stored("read", path, "when").output == "\"2026-01-01T10:00:00.25Z\"\n")
        #expect(stored("read", path, "bytes").output == "\"AP8Q\"\n")
    }

    @Test(arguments: [("on", true), ("OFF", false), ("Yes", true), ("0", false)])
    func boolAcceptsEveryWordTheLibraryReads(_ word: String, _ expected: Bool) throws {
        let folder = try TemporaryFolder()
        let path = folder.path("s.json")
        expectSuccess(stored("write", path, "flag", "-bool", word))
        #expect(try Bool(storedValue: .string(word)) == expected)
        #expect(stored("read", path, "flag").output == (expected ? "true\n" : "false\n"))
    }

    enum Odd: String, CaseIterable { case folder, fifo, devNull, linkToFolder }

    /// Makes `name` in `folder` the odd kind of file.
    static func make(_ odd: Odd, _ name: String, in folder: TemporaryFolder) throws {
        let path = folder.path(name)
        switch odd {
        case .folder: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .fifo: #expect(mkfifo(path, 0o600) == 0)
        case .devNull: try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/dev/null")
        case .linkToFolder:
            try FileManager.default.createDirectory(atPath: folder.path("real"), withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: folder.path("real"))
        }
    }

    @Test(arguments: Odd.allCases)
    func targetThatIsNotARegularFileIsRefusedAtOnceAndLeftAsItIs(_ odd: Odd) throws {
        let folder = try TemporaryFolder()
        try Self.make(odd, "odd settings é.json", in: folder)
        let path = folder.path("odd settings é.json")
        let before = try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
        for arguments in [
            ["read", path], ["write", path, "k", "v"], ["keys", path], ["delete", path], ["import", path, "-"],
        ] {
            let run = stored(arguments: arguments, input: "{\"k\": 1}")
            expectFailure(run, .ioError)
            #expect(run.errors.contains("not a regular file"), "\(run.errors)")
            #expect(!run.errors.contains("Error Domain"), "\(run.errors)")
        }
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType == before)
    }

    @Test func pathWithALineBreakIsQuotedOnOneLine() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(
            atPath: folder.path("two\nlines.json"), withIntermediateDirectories: false)
        let run = stored("read", folder.path("two\nlines.json"))
        expectFailure(run, .ioError)
        #expect(run.errors.contains("two\\nlines.json"))
    }

    /// A pipe given as FILE (a shell's `<(command)`) is refused at once, as a FIFO at a
    /// settings file's path is: it could be endless. Standard input (`-`) is read instead.
    @Test func importRefusesAPipeAsFileAndReadsStandardInput() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("s.json")
        let pipe = Pipe()
        try pipe.fileHandleForWriting.write(contentsOf: Data("{\"fromPipe\": 7}".utf8))
        try pipe.fileHandleForWriting.close()
        let run = stored("import", path, "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)")
        expectFailure(run, .ioError)
        #expect(run.errors.contains("not a regular file but a FIFO"), "\(run.errors)")
        expectSuccess(stored("import", path, "-", input: "{\"fromPipe\": 7}"))
        #expect(stored("read", path, "fromPipe").output == "7\n")
    }

    @Test func importOfAFolderSaysSo() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("in.json"), withIntermediateDirectories: false)
        let run = stored("import", folder.path("s.json"), folder.path("in.json"))
        expectFailure(run, .ioError)
        #expect(run.errors.hasSuffix("the path is not a regular file but a folder.\n"), "\(run.errors)")
        #expect(folder.contents("s.json") == nil)
    }
}
