import Foundation
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// The schema and the file's reader agree: an editor that checks a file against the schema
/// never approves one the store refuses to open, wherever JSON Schema can say so.
@Suite(.timeLimit(TestScale.hangGuard))
struct JSONSchemaReaderAgreementTests {
    /// A settings file the store refuses to open.
    struct RefusedFile: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var testDescription: String { name }
    }

    static func nested(_ depth: Int, open: String = "[", close: String = "]") -> String {
        String(repeating: open, count: depth) + "1" + String(repeating: close, count: depth)
    }

    static let refusedFiles = [
        RefusedFile(name: "null inside another tool's key", text: #"{"otherTool": [1, {"a": null}]}"#),
        RefusedFile(name: "null as another tool's key", text: #"{"otherTool": null}"#),
        RefusedFile(name: "null inside a declared structure", text: #"{"checked": {"ratio": null}}"#),
        RefusedFile(name: "1e400 in another tool's key", text: #"{"otherTool": {"n": 1e400}}"#),
        RefusedFile(name: "-1e400 for a Double", text: #"{"ratio": -1e400}"#),
        RefusedFile(name: "arrays nested past 64 levels", text: #"{"otherTool": \#(nested(64))}"#),
        RefusedFile(
            name: "objects nested past 64 levels",
            text: #"{"objects": \#(nested(64, open: #"{"a": "#, close: "}"))}"#),
    ]

    @Test(arguments: refusedFiles, JSONSchemaDraft.allCases)
    func aFileTheStoreRefusesBreaksTheSchema(_ file: RefusedFile, draft: JSONSchemaDraft) async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try Data(file.text.utf8).write(to: url)
        #expect(throws: StorageError.self) { try FileStore(url: url, options: quietOptions) }
        let verdict = try await SchemaValidator.validate(
            url, against: SchemaSettings.jsonSchema(draft: draft), draft: draft, in: folder)
        #expect(!verdict.isValid)
    }

    @Test(arguments: JSONSchemaDraft.allCases)
    func theDeepestNestingTheStoreReadsIsValid(draft: JSONSchemaDraft) async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let text = #"{"otherTool": \#(Self.nested(63)), "objects": \#(Self.nested(63, open: #"{"a": "#, close: "}"))}"#
        try Data(text.utf8).write(to: url)
        _ = try FileStore(url: url, options: quietOptions)
        let verdict = try await SchemaValidator.validate(
            url, against: SchemaSettings.jsonSchema(draft: draft), draft: draft, in: folder)
        #expect(verdict.isValid, "\(verdict.errors)")
    }

    /// The reader refuses one level more than it reads, as `nestingTooDeep`; the schema both
    /// checks and names the limit, and names what it cannot check.
    @Test func theSchemaSaysWhatItCannotCheck() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try Data(#"{"otherTool": \#(Self.nested(64))}"#.utf8).write(to: url)
        let error = try #require(throws: StorageError.self) { try FileStore(url: url, options: quietOptions) }
        #expect(error.code == .nestingTooDeep)
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(SchemaSettings.jsonSchema().utf8)) as? [String: Any])
        let description = try #require(schema["description"] as? String)
        #expect(description.contains("nested at most 64 levels deep"))
        #expect(description.contains("surrogate"))
        #expect(description.contains("canonically equivalent"))
        #expect(description.contains("16 MiB"))
    }
}
