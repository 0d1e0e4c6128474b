import Foundation
import StoredCLI
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// `import`: merge, validated first, written once.
@Suite(.timeLimit(.hangGuard))
struct ImportTests {
    @Test func mergesJSONKeysIntoTheTarget() throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("demo.json", #"{"keep": 1, "replace": 2}"#)
        let file = try folder.write("new.json", #"{"replace": "two", "add": [true]}"#)
        expectSuccess(stored("import", target, file), output: "")
        #expect(
            folder.text("demo.json") == """
                {
                  "add": [
                    true
                  ],
                  "keep": 1,
                  "replace": "two"
                }

                """)
    }

    @Test func mergesAPropertyListIntoAPropertyListTarget() throws {
        let folder = try TemporaryFolder()
        let target = folder.path("demo.plist")
        let file = try folder.write(
            "new.plist",
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>when</key><date>2026-03-01T09:30:00Z</date>
            <key>blob</key><data>AP8=</data>
            <key>ratio</key><real>0.25</real>
            </dict></plist>
            """)
        expectSuccess(stored("import", target, file))
        let store = try FileStore(url: URL(fileURLWithPath: target))
        #expect(store.value(forKey: "when") == .date(Date(timeIntervalSince1970: 1_772_357_400)))
        #expect(store.value(forKey: "blob") == .data(Data([0x00, 0xFF])))
        #expect(store.value(forKey: "ratio") == .double(0.25))
    }

    @Test func readsStandardInputAndGuessesItsFormat() throws {
        let folder = try TemporaryFolder()
        let target = folder.path("demo.json")
        expectSuccess(stored("import", target, "-", input: #"{"a": 1}"#))
        expectSuccess(
            stored("import", target, "-", input: "<plist version=\"1.0\"><dict><key>b</key><true/></dict></plist>"))
        expectSuccess(stored("read", target), output: "{\n  \"a\": 1,\n  \"b\": true\n}\n")
    }

    /// An import file that must be refused as a whole.
    struct BadFile: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var testDescription: String { name + ": " + text }
    }

    static let badFiles: [BadFile] = [
        BadFile(name: "bad.json", text: "{\"a\": 1,"),
        BadFile(name: "array.json", text: "[1, 2]"),
        BadFile(name: "null.json", text: "{\"a\": 1, \"b\": null}"),
        BadFile(name: "emptykey.json", text: "{\"a\": 1, \"\": 2}"),
        BadFile(name: "control.json", text: "{\"a\": 1, \"b\\u0001\": 2}"),
        BadFile(name: "bad.plist", text: "<plist><dict><key>a</key>"),
    ]

    @Test(arguments: badFiles)
    func refusesTheWholeFileAndChangesNothing(_ bad: BadFile) throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("demo.json", "{\n  \"a\": 0\n}\n")
        let file = try folder.write(bad.name, bad.text)
        let run = stored("import", target, file)
        expectFailure(run, .dataError)
        #expect(run.errors.contains(bad.name), "\(run.errors)")
        #expect(folder.text("demo.json") == "{\n  \"a\": 0\n}\n")
    }

    @Test func valueTheTargetCannotHoldNamesTargetAndKey() throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("demo.json", "{\n  \"a\": 0\n}\n")
        let file = try folder.write(
            "nan.plist", "<plist><dict><key>a</key><integer>1</integer><key>b</key><real>nan</real></dict></plist>")
        expectFailure(
            stored("import", target, file), .dataError,
            line: "stored: Setting 'b' in \(target): expected Double: JSON has no form for NaN or infinity."
        )
        #expect(folder.text("demo.json") == "{\n  \"a\": 0\n}\n")
    }

    @Test func missingImportFileIsNoInput() throws {
        let folder = try TemporaryFolder()
        let target = folder.path("demo.json")
        let file = folder.path("absent.json")
        expectFailure(stored("import", target, file), .noInput, line: "stored: \(file): cannot read: no such file.")
        #expect(folder.contents("demo.json") == nil)
    }

    @Test func importIntoAnUnparsableTargetChangesNothing() throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("demo.json", "not json")
        let file = try folder.write("new.json", #"{"a": 1}"#)
        expectFailure(stored("import", target, file), .dataError)
        #expect(folder.text("demo.json") == "not json")
    }
}

/// A value `import` refuses is named by its key and the place inside it.
@Suite(.timeLimit(.hangGuard))
struct ImportErrorLocationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var json: String
        var line: String
        var testDescription: String { json }
    }

    static let cases: [Case] = [
        Case(
            json: #"{"a": null}"#, line: "stored: Setting 'a' in FILE: null is not a stored value at line 1, column 7."),
        Case(
            json: #"{"ok": 1, "a": {"b": [1, null]}}"#,
            line: "stored: Setting 'a' at 'b.1' in FILE: null is not a stored value at line 1, column 26."),
        Case(
            json: #"{"a": 1e999}"#,
            line: "stored: Setting 'a' in FILE: the number 1e999 is out of the range of Double at line 1, column 7."),
    ]

    @Test(arguments: cases)
    func refusedValueNamesItsKey(_ testCase: Case) throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("demo.json", #"{"keep": 1}"#)
        let file = try folder.write("bad.json", testCase.json)
        let run = stored("import", target, file)
        expectFailure(run, .dataError, line: testCase.line.replacingOccurrences(of: "FILE", with: file))
        #expect(folder.text("demo.json") == #"{"keep": 1}"#)
    }
}
