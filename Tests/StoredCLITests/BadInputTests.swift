import Foundation
import StoredCLI
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// Every bad input gets one line on standard error, a sysexits code, and no change on disk.
@Suite(.timeLimit(.hangGuard))
struct BadInputTests {
    @Test func badValueForTypeIsDataErrorAndChangesNothing() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("demo.json", "{\n  \"count\": 3\n}\n")
        let before = folder.contents("demo.json")
        expectFailure(
            stored("write", file, "count", "-int", "abc"), .dataError,
            line: "stored: Setting 'count' in \(file): expected Int, found string: \"abc\" is not a whole number."
        )
        #expect(folder.contents("demo.json") == before)
    }

    @Test func fileThatIsNotValidJSONIsDataErrorAndKeepsItsBytes() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("broken.json", "{\"count\": 3,,}\n")
        let before = folder.contents("broken.json")
        for arguments in [
            ["write", file, "count", "-int", "4"], ["read", file], ["read", file, "count"], ["delete", file],
            ["keys", file],
        ] {
            let run = stored(arguments: arguments)
            expectFailure(run, .dataError)
            #expect(run.errors.contains(file), "\(run.errors)")
        }
        #expect(folder.contents("broken.json") == before)
    }

    @Test func propertyListThatDoesNotParseIsDataError() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("broken.plist", "<plist><dict><key>a</key>")
        expectFailure(stored("write", file, "a", "x"), .dataError)
        #expect(folder.text("broken.plist") == "<plist><dict><key>a</key>")
    }

    @Test func unwritablePathIsIOErrorNamingFileAndKey() throws {
        let folder = try TemporaryFolder()
        // A regular file where a folder should be: no permission trick, so it fails as root too.
        try folder.write("plain", "not a folder")
        let file = folder.path("plain/demo.json")
        let run = stored("write", file, "autoReload", "-bool", "true")
        expectFailure(run, .ioError)
        #expect(run.errors.hasPrefix("stored: Setting 'autoReload' in \(file): "), "\(run.errors)")
        #expect(folder.text("plain") == "not a folder")
    }

    @Test func valueJSONCannotHoldIsDataErrorAndChangesNothing() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("demo.json", "{}\n")
        expectFailure(
            stored("write", file, "ratio", "-float", "nan"), .dataError,
            line: "stored: Setting 'ratio' in \(file): expected Double: JSON has no form for NaN or infinity."
        )
        #expect(folder.text("demo.json") == "{}\n")
    }

    @Test func missingKeyExitsWithOne() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("demo.json", "{\"a\": 1}\n")
        expectFailure(stored("read", file, "b"), .notFound, line: "stored: Setting 'b' in \(file): no value is stored.")
        expectFailure(
            stored("delete", file, "b"), .notFound, line: "stored: Setting 'b' in \(file): no value is stored.")
        #expect(folder.text("demo.json") == "{\"a\": 1}\n")
    }

    @Test func unknownVerbIsUsageError() {
        expectFailure(stored("frob", "demo.json"), .usage, line: "stored: unknown command 'frob'. See 'stored help'.")
    }

    @Test func missingValueIsUsageErrorAndCreatesNoFile() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("demo.json")
        expectFailure(
            stored("write", file, "count"), .usage,
            line: "stored: write needs a VALUE after the key. See 'stored help write'.")
        expectFailure(
            stored("write", file, "count", "-int"), .usage,
            line: "stored: write needs a VALUE after -int. See 'stored help write'.")
        #expect(folder.contents("demo.json") == nil)
    }

    @Test func unknownTypeFlagIsUsageError() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("demo.json")
        expectFailure(
            stored("write", file, "count", "-number", "5"), .usage,
            line:
                "stored: unknown TYPE '-number': use -bool, -int, -float, -string, -date, -data or -json. See 'stored help write'."
        )
        #expect(folder.contents("demo.json") == nil)
    }

    @Test func badJSONOnStandardInputIsDataError() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("demo.json")
        let run = stored("write", file, "profile", "-json", "-", input: "{\"name\": ")
        expectFailure(run, .dataError)
        #expect(
            run.errors
                == "stored: Setting 'profile' at 'name' in \(file): expected JSON: unexpected end of the file at line 1, column 10.\n",
            "\(run.errors)")
        #expect(folder.contents("demo.json") == nil)
    }

    @Test func folderAsTargetIsIOError() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("dir.json"), withIntermediateDirectories: false)
        expectFailure(stored("read", folder.path("dir.json")), .ioError)
    }

    @Test func invalidDomainNameIsUsageError() {
        expectFailure(
            stored("write", "--domain", "../escape", "k", "v"), .usage,
            line:
                "stored: '../escape' is not a valid domain name: a suite name cannot contain '/' or '..'. See 'stored help'."
        )
    }

    @Test(arguments: [
        ["-json"], ["-json", "["], ["-int", ""], ["-bool", ""], ["-date", "2026-13-45T99:99:99Z"], ["-data", "0x1"],
        ["-float", "1,5"], ["-json", String(repeating: "[", count: 10_000)],
    ])
    func neverTrapsOnOddValues(_ value: [String]) throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("demo.json", "{}\n")
        let run = stored(arguments: ["write", file, "k"] + value)
        #expect(run.code == .usage || run.code == .dataError)
        #expect(run.errorLines.count == 1)
        #expect(folder.text("demo.json") == "{}\n")
    }
}
