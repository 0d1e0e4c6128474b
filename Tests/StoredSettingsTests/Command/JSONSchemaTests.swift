import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// The JSON Schema of a settings group, checked by a real validator (Python's `jsonschema`)
/// against files a `FileStore` wrote, in each draft it is written in: draft 2020-12 with that
/// draft's validator, draft-07 with draft-07's.
@Suite(.timeLimit(TestScale.hangGuard))
struct JSONSchemaTests {
    /// A file that breaks the schema in one way.
    struct BadFile: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var expectedError: String
        var testDescription: String { name }
    }

    static let badFiles = [
        BadFile(
            name: "a Bool as text", text: #"{"flag": "yes"}"#, expectedError: "flag: 'yes' is not of type 'boolean'"),
        BadFile(name: "a number for a string", text: #"{"name": 4}"#, expectedError: "name: 4 is not of type 'string'"),
        BadFile(
            name: "an enum value not among the cases", text: #"{"shade": "purple"}"#,
            expectedError: "shade: 'purple' is not one of ['light', 'dark']"),
        BadFile(
            name: "an integer enum value not among the cases", text: #"{"level": 2}"#,
            expectedError: "level: 2 is not one of [1, 3]"),
        BadFile(
            name: "an Int8 below its range", text: #"{"small": -129}"#,
            expectedError: "small: -129 is less than the minimum of -128"),
        BadFile(
            name: "a UInt8 above its range", text: #"{"byte": 256}"#,
            expectedError: "byte: 256 is greater than the maximum of 255"),
        BadFile(
            name: "an Int above Int64.max", text: #"{"count": 9223372036854775808}"#,
            expectedError: "count: 9223372036854775808 is greater than the maximum of 9223372036854775807"),
        BadFile(
            name: "a fraction for an integer", text: #"{"count": 1.5}"#,
            expectedError: "count: 1.5 is not of type 'integer'"),
        BadFile(
            name: "null for an optional", text: #"{"when": null}"#, expectedError: "when: None is not of type 'string'"),
        BadFile(
            name: "a duplicate in a set", text: #"{"numbers": [1, 1]}"#,
            expectedError: "numbers: [1, 1] has non-unique elements"),
        BadFile(
            name: "a wrong dictionary value", text: #"{"limits": {"a": "many"}}"#,
            expectedError: "limits/a: 'many' is not of type 'integer'"),
        BadFile(
            name: "a wrong field type inside a structure",
            text:
                #"{"window": {"width": "wide", "shade": "dark", "opened": "2025-01-01T00:00:00Z", "margins": {"top": 1, "bottom": 2}, "tabs": []}}"#,
            expectedError: "window/width: 'wide' is not of type 'integer'"),
        BadFile(
            name: "a misspelled field inside a structure",
            text:
                #"{"window": {"width": 1, "shade": "dark", "opened": "2025-01-01T00:00:00Z", "margins": {"top": 1, "bottom": 2}, "tabs": [], "titel": "x"}}"#,
            expectedError: "window: Additional properties are not allowed ('titel' was unexpected)"),
        BadFile(
            name: "a missing field of a structure",
            text: #"{"window": {"width": 1, "shade": "dark", "opened": "2025-01-01T00:00:00Z", "tabs": []}}"#,
            expectedError: "window: 'margins' is a required property"),
        BadFile(
            name: "a huge UInt64 text that is not digits", text: #"{"huge": "lots"}"#,
            expectedError: "huge: 'lots' is not valid under any of the given schemas"),
        BadFile(
            name: "a list that is not a list", text: #"{"tags": "a,b"}"#,
            expectedError: "tags: 'a,b' is not of type 'array'"),
    ]

    @Test(arguments: JSONSchemaDraft.allCases)
    func acceptsTheFileTheStoreWritesForEveryKindOfSetting(draft: JSONSchemaDraft) async throws {
        let folder = try ScratchFolder()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        let settings = SchemaSettings(store: store)
        settings.assignEverySetting()
        #expect(store.keys().count == SchemaSettings.declaredSettingCount)

        let verdict = try await SchemaValidator.validate(
            store.url, against: SchemaSettings.jsonSchema(draft: draft), draft: draft, in: folder)
        #expect(verdict.isValid, "\(verdict.errors)")
    }

    @Test(arguments: JSONSchemaDraft.allCases)
    func acceptsAFileHoldingEveryDefault(draft: JSONSchemaDraft) async throws {
        let folder = try ScratchFolder()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        let settings = SchemaSettings(store: store)
        // Writes each default explicitly, so the file holds the stored form of every default.
        for setting in settings.settingDescriptions() where !setting.isSecret {
            try store.setValue(setting.defaultValue, forKey: setting.key)
        }
        settings.token = "s3cret"

        let verdict = try await SchemaValidator.validate(
            store.url, against: SchemaSettings.jsonSchema(draft: draft), draft: draft, in: folder)
        #expect(verdict.isValid, "\(verdict.errors)")
    }

    @Test(arguments: JSONSchemaDraft.allCases)
    func acceptsAnEmptyFileAndOtherToolsKeys(draft: JSONSchemaDraft) async throws {
        let folder = try ScratchFolder()
        let schema = SchemaSettings.jsonSchema(draft: draft)
        #expect(try await SchemaValidator.validate(text: "{}", against: schema, draft: draft, in: folder).isValid)
        let other = try await SchemaValidator.validate(
            text: #"{"otherTool": [1, {"a": 2.5e300, "b": [true, "x"]}]}"#, against: schema, draft: draft, in: folder)
        #expect(other.isValid, "\(other.errors)")
    }

    @Test(arguments: badFiles, JSONSchemaDraft.allCases)
    func rejectsAFileThatBreaksTheSchema(_ file: BadFile, draft: JSONSchemaDraft) async throws {
        let folder = try ScratchFolder()
        let verdict = try await SchemaValidator.validate(
            text: file.text, against: SchemaSettings.jsonSchema(draft: draft), draft: draft, in: folder)
        #expect(!verdict.isValid)
        #expect(verdict.errors == file.expectedError + "\n")
    }

    @Test func describesEachTypeAsTheStoreWritesIt() throws {
        let schema = try Self.parsed(SchemaSettings.jsonSchema(title: "schema test settings"))
        #expect(schema["$schema"] as? String == "https://json-schema.org/draft/2020-12/schema")
        #expect(schema["title"] as? String == "schema test settings")
        #expect(schema["type"] as? String == "object")
        #expect(schema["additionalProperties"] as? NSDictionary == Self.anyValue)
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let anyValue = try #require(definitions["storedValue"] as? NSDictionary)
        #expect(anyValue["type"] as? [String] == ["boolean", "number", "string", "array", "object"])
        #expect(anyValue["items"] as? NSDictionary == Self.anyValue)
        #expect(anyValue["additionalProperties"] as? NSDictionary == Self.anyValue)
        #expect(anyValue["maximum"] as? Double == .greatestFiniteMagnitude)
        #expect(schema["required"] == nil)
        let properties = try #require(schema["properties"] as? [String: Any])
        #expect(properties.count == SchemaSettings.declaredSettingCount)
        func property(_ key: String) -> NSDictionary { (properties[key] as? NSDictionary) ?? [:] }

        #expect(property("flag") == ["type": "boolean", "default": false, "description": "A switch."])
        #expect(property("small") == ["type": "integer", "minimum": -128, "maximum": 127, "default": 0])
        #expect(
            property("count")
                == ["type": "integer", "minimum": Int64.min, "maximum": Int64.max, "default": 3] as NSDictionary)
        #expect(property("ratio") == Self.finiteNumber(default: 0.5))
        #expect(property("name") == ["type": "string", "default": "Ada"])
        #expect(property("when") == ["type": "string", "format": "date-time"])
        #expect(property("site") == ["type": "string", "format": "uri-reference", "default": "file:///tmp/"])
        #expect(property("id") == ["type": "string", "format": "uuid"])
        #expect(property("blob") == ["type": "string", "contentEncoding": "base64", "default": "AQID"])
        #expect(property("shade") == ["enum": ["light", "dark"], "default": "light"])
        #expect(property("level") == ["enum": [1, 3], "default": 1])
        #expect(property("tags") == ["type": "array", "items": ["type": "string"], "default": ["a"]])
        #expect(
            property("numbers") == [
                "type": "array", "items": property("count").without("default"), "uniqueItems": true, "default": [],
            ])
        #expect(
            property("limits")
                == ["type": "object", "additionalProperties": property("count").without("default"), "default": [:]])
        #expect(
            property("token")
                == [
                    "type": "string", "writeOnly": true,
                    "description": "Token for the service. A secret: listings show it as <redacted>.",
                ])
    }

    @Test func findsTheFieldsOfAStructureWithoutADefault() throws {
        let schema = try Self.parsed(SchemaSettings.jsonSchema())
        let window = try #require((schema["properties"] as? [String: Any])?["window"] as? NSDictionary)
        let expected: NSDictionary = [
            "type": "object",
            "additionalProperties": false,
            "required": ["margins", "opened", "shade", "tabs", "width"],
            "properties": [
                "width": ["type": "integer", "minimum": Int64.min, "maximum": Int64.max] as NSDictionary,
                "title": ["type": "string"],
                "shade": ["enum": ["light", "dark"]],
                "opened": ["type": "string", "format": "date-time"],
                "tabs": ["type": "array", "items": ["type": "string"]],
                "margins": [
                    "type": "object", "additionalProperties": false, "required": ["bottom", "top"],
                    "properties": [
                        "top": ["type": "integer", "minimum": Int64.min, "maximum": Int64.max] as NSDictionary,
                        "bottom": ["type": "integer", "minimum": Int64.min, "maximum": Int64.max] as NSDictionary,
                    ],
                ],
            ],
        ]
        #expect(window == expected)
    }

    @Test func readsTheFieldsOfAStructureThatCannotBeProbedFromItsDefault() throws {
        let schema = try Self.parsed(SchemaSettings.jsonSchema())
        let checked = try #require((schema["properties"] as? [String: Any])?["checked"] as? NSDictionary)
        #expect(
            checked
                == [
                    "type": "object", "properties": ["ratio": Self.finiteNumber()],
                    "additionalProperties": Self.anyValue,
                    "default": ["ratio": 1],
                ])
    }

    @Test func describesAUInt64AboveInt64MaxAsItsDecimalText() throws {
        let schema = try Self.parsed(SchemaSettings.jsonSchema())
        let huge = try #require((schema["properties"] as? [String: Any])?["huge"] as? NSDictionary)
        let alternatives = try #require(huge["anyOf"] as? [NSDictionary])
        #expect(alternatives.first == ["type": "integer", "minimum": 0, "maximum": UInt64.max] as NSDictionary)
        #expect(alternatives.last?["pattern"] as? String == "^[0-9]+$")
    }

    // MARK: - Helpers

    /// The reference to the definition of any value but `null`.
    static var anyValue: NSDictionary { ["$ref": "#/$defs/storedValue"] }

    /// A `number` within `Double`'s range, with `default` when given.
    static func finiteNumber(default value: Double? = nil) -> NSDictionary {
        let schema: NSMutableDictionary = [
            "type": "number", "minimum": -Double.greatestFiniteMagnitude, "maximum": Double.greatestFiniteMagnitude,
        ]
        if let value { schema["default"] = value }
        return schema
    }

    static func parsed(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }
}

extension SchemaSettings {
    /// How many settings the group declares.
    static var declaredSettingCount: Int { SchemaSettings(store: InMemoryStore()).settingDescriptions().count }
}

extension NSDictionary {
    /// A copy without `key`.
    func without(_ key: String) -> NSDictionary {
        let copy = NSMutableDictionary()
        for case (let name as String, let value) in self where name != key {
            copy.setObject(value, forKey: name as NSString)
        }
        return copy
    }
}
