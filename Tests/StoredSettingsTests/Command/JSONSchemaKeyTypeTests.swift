import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// The JSON Schema of dictionaries whose keys are not strings in Swift, inside structures,
/// checked by Python's `jsonschema` against files a `FileStore` wrote.
@Suite(.timeLimit(TestScale.hangGuard))
struct JSONSchemaKeyTypeTests {
    @Test func acceptsTheFileTheStoreWritesForDictionariesWithKeysThatAreNotStrings() async throws {
        let folder = try ScratchFolder()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        KeyedSchemaSettings(store: store).assignEverySetting()
        #expect(store.keys().count == 4)

        let verdict = try await SchemaValidator.validate(
            store.url, against: KeyedSchemaSettings.jsonSchema(), in: folder)
        #expect(verdict.isValid, "\(verdict.errors)")
    }

    @Test func acceptsAFileHoldingTheEmptyDefaults() async throws {
        let folder = try ScratchFolder()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        let settings = KeyedSchemaSettings(store: store)
        settings.emptyPlan = .empty
        settings.names = []
        settings.limits = [:]

        let verdict = try await SchemaValidator.validate(
            store.url, against: KeyedSchemaSettings.jsonSchema(), in: folder)
        #expect(verdict.isValid, "\(verdict.errors)")
    }

    @Test func rejectsAKeyThatIsNotAnIntegerForAnIntKeyedDictionary() async throws {
        let folder = try ScratchFolder()
        let text = #"{"emptyPlan": {"byNumber": {"seven": "x"}, "byDay": {}, "byID": [], "byScore": [], "nested": {}}}"#
        let verdict = try await SchemaValidator.validate(
            text: text, against: KeyedSchemaSettings.jsonSchema(), in: folder)
        #expect(verdict.errors == "emptyPlan/byNumber: 'seven' does not match '^-?[0-9]+$'\n")
    }

    @Test func rejectsAKeyThatNamesNoCaseForAnEnumKeyedDictionary() async throws {
        let folder = try ScratchFolder()
        let text = #"{"emptyPlan": {"byNumber": {}, "byDay": {"sun": 1}, "byID": [], "byScore": [], "nested": {}}}"#
        let verdict = try await SchemaValidator.validate(
            text: text, against: KeyedSchemaSettings.jsonSchema(), in: folder)
        #expect(verdict.errors == "emptyPlan/byDay: 'sun' is not one of ['mon', 'tue']\n")
    }

    @Test func rejectsAWrongValueInAnIntKeyedDictionary() async throws {
        let folder = try ScratchFolder()
        let text = #"{"emptyPlan": {"byNumber": {"7": 7}, "byDay": {}, "byID": [], "byScore": [], "nested": {}}}"#
        let verdict = try await SchemaValidator.validate(
            text: text, against: KeyedSchemaSettings.jsonSchema(), in: folder)
        #expect(verdict.errors == "emptyPlan/byNumber/7: 7 is not of type 'string'\n")
    }

    @Test func printsEmptyDefaultsAsEmptyBrackets() throws {
        let schema = KeyedSchemaSettings.jsonSchema()
        #expect(schema.contains(#""default" : []"#), "\(schema)")
        #expect(schema.contains(#""default" : {}"#), "\(schema)")
    }
}
