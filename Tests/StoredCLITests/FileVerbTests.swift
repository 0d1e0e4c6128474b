import Foundation
import StoredCLI
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// `read`, `write`, `delete`, `keys` and `export` on JSON and property-list files.
@Suite(.timeLimit(.hangGuard))
struct FileVerbTests {
    @Test func writesThenReadsTheWholeStoreAsJSON() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("demo.json")
        expectSuccess(stored("write", file, "autoReload", "-bool", "true"), output: "")
        expectSuccess(stored("read", file), output: "{\n  \"autoReload\": true\n}\n")
        #expect(folder.text("demo.json") == "{\n  \"autoReload\": true\n}\n")
    }

    /// A TYPE, a VALUE and what `read` prints for it.
    struct WriteCase: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var printed: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let writeCases: [WriteCase] = [
        WriteCase(arguments: ["-bool", "no"], printed: "false\n"),
        WriteCase(arguments: ["-int", "42"], printed: "42\n"),
        WriteCase(arguments: ["-float", "0.5"], printed: "0.5\n"),
        WriteCase(arguments: ["-float", "2"], printed: "2.0\n"),
        WriteCase(arguments: ["plain text"], printed: "\"plain text\"\n"),
        WriteCase(arguments: ["true"], printed: "\"true\"\n"),
        WriteCase(arguments: ["-string", "say \"hi\""], printed: "\"say \\\"hi\\\"\"\n"),
        WriteCase(arguments: ["-date", "2026-03-01T10:30:00+01:00"], printed: "\"2026-03-01T09:30:00Z\"\n"),
        WriteCase(arguments: ["-data", "48656c6c6f"], printed: "\"SGVsbG8=\"\n"),
        WriteCase(arguments: ["-json", "[1, {\"b\": true}]"], printed: "[\n  1,\n  {\n    \"b\": true\n  }\n]\n"),
    ]

    @Test(arguments: writeCases, ["json", "plist"])
    func readsBackOneValueAsJSON(_ testCase: WriteCase, format: String) throws {
        let folder = try TemporaryFolder()
        let file = folder.path("settings.\(format)")
        expectSuccess(stored(arguments: ["write", file, "value"] + testCase.arguments))
        expectSuccess(stored("read", file, "value"), output: testCase.printed)
    }

    @Test func readsJSONValueFromStandardInput() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("demo.json")
        expectSuccess(stored("write", file, "recent", "-json", "-", input: "[\"a.txt\", \"b.txt\"]\n"))
        let store = try FileStore(url: URL(fileURLWithPath: file))
        #expect(store.value(forKey: "recent") == .array([.string("a.txt"), .string("b.txt")]))
    }

    @Test func writesPropertyListFilesWithNativeTypes() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("settings.plist")
        expectSuccess(stored("write", file, "when", "-date", "2026-03-01T09:30:00Z"))
        expectSuccess(stored("write", file, "blob", "-data", "00ff"))
        let store = try FileStore(url: URL(fileURLWithPath: file))
        #expect(store.value(forKey: "when") == .date(Date(timeIntervalSince1970: 1_772_357_400)))
        #expect(store.value(forKey: "blob") == .data(Data([0x00, 0xFF])))
        #expect(folder.text("settings.plist")?.contains("<date>2026-03-01T09:30:00Z</date>") == true)
    }

    @Test func readsAMissingFileAsAnEmptyStoreWithoutCreatingIt() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("none.json")
        expectSuccess(stored("read", file), output: "{}\n")
        expectSuccess(stored("keys", file), output: "")
        expectSuccess(stored("delete", file), output: "")
        #expect(folder.contents("none.json") == nil)
    }

    @Test func listsKeysSortedOnePerLine() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("demo.json", #"{"zeta": 1, "alpha": 2, "a.b c": 3, "Émile": 4}"#)
        expectSuccess(stored("keys", file), output: "a.b c\nalpha\nzeta\nÉmile\n")
    }

    @Test func deletesOneKeyAndKeepsTheOthers() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("demo.json", #"{"a": 1, "b": 2}"#)
        expectSuccess(stored("delete", file, "a"), output: "")
        #expect(folder.text("demo.json") == "{\n  \"b\": 2\n}\n")
    }

    @Test func deletesEveryKeyInOneWrite() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "demo.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>a</key><integer>1</integer><key>b</key><true/></dict></plist>
            """)
        expectSuccess(stored("delete", file))
        expectSuccess(stored("read", file), output: "{}\n")
        let reopened = try FileStore(url: URL(fileURLWithPath: file))
        #expect(reopened.keys().isEmpty)
    }

    @Test func exportsAsJSONByDefaultAndAsAPropertyList() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("demo.json", #"{"b": [1, 2], "a": "x"}"#)
        expectSuccess(stored("export", file), output: "{\n  \"a\": \"x\",\n  \"b\": [\n    1,\n    2\n  ]\n}\n")
        let plist = stored("export", file, "--format", "plist")
        expectSuccess(plist)
        let object = try PropertyListSerialization.propertyList(from: Data(plist.output.utf8), format: nil)
        #expect(
            PropertyListValue.storedValue(from: object)
                == .dictionary(["a": .string("x"), "b": .array([.int(1), .int(2)])]))
    }

    @Test func exportedPropertyListImportsBackUnchanged() throws {
        let folder = try TemporaryFolder()
        let source = folder.path("source.plist")
        expectSuccess(stored("write", source, "when", "-date", "2026-03-01T09:30:00Z"))
        expectSuccess(stored("write", source, "count", "-int", "7"))
        let exported = stored("export", source, "--format", "plist")
        expectSuccess(exported)
        let copy = folder.path("copy.plist")
        expectSuccess(stored("import", copy, "-", input: exported.output))
        #expect(
            try FileStore(url: URL(fileURLWithPath: copy)).value(forKey: "when")
                == .date(Date(timeIntervalSinceReferenceDate: 794_050_200)))
        expectSuccess(stored("export", copy, "--format", "plist"), output: exported.output)
    }
}

/// The examples in the documentation of `StoredCLI` and `ExitCode`, compiled and run.
@Suite(.timeLimit(.hangGuard))
struct DocumentationExampleTests {
    @Test func runsTheDocumentedExample() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("demo.json")

        var output = ""
        var errors = ""
        let code = StoredCLI.run(
            arguments: ["write", file, "autoReload", "-bool", "true"],
            output: &output, error: &errors
        )
        #expect(code == .success)

        let listed = StoredCLI.run(arguments: ["keys", file], output: &output, error: &errors)
        if listed == .success { #expect(output == "autoReload\n") }
        #expect(listed == .success && errors.isEmpty)
    }
}

/// `export --format plist` writes what a `.plist` FileStore writes: well-formed XML, exact.
@Suite(.timeLimit(.hangGuard))
struct PropertyListExportTests {
    @Test func exportRefusesCharacterXMLCannotCarryAndNamesTheKey() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("demo.json", #"{"a": "x\u0001y", "b": 1}"#)
        let run = stored("export", file, "--format", "plist")
        expectFailure(run, .dataError)
        #expect(run.errors.contains("'a'"), "\(run.errors)")
        #expect(run.errors.contains("U+0001"), "\(run.errors)")
    }

    @Test func exportKeepsNegativeZeroAndSubsecondDatesExactly() throws {
        let folder = try TemporaryFolder()
        let source = folder.path("source.plist")
        let store = try FileStore(url: URL(fileURLWithPath: source))
        try store.setValue(.double(-0.0), forKey: "zero")
        try store.setValue(.date(Date(timeIntervalSinceReferenceDate: 794_050_200.125)), forKey: "when")
        let exported = stored("export", source, "--format", "plist")
        expectSuccess(
            exported, output: String(decoding: try Data(contentsOf: URL(fileURLWithPath: source)), as: UTF8.self))
    }
}
