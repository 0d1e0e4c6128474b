import Foundation
public import StoredSettings

extension SettingsGroup {
    /// A JSON Schema (draft 2020-12) of the group's settings file, as pretty-printed JSON text,
    /// so that an editor completes and checks `settings.json`.
    ///
    /// ```swift
    /// let schema = DaybookSettings.jsonSchema(title: "daybook settings")
    /// try Data(schema.utf8).write(to: schemaURL)
    /// ```
    ///
    /// The schema describes the JSON object a `FileStore` keeps: one property per declared
    /// key, with
    /// - its type as the store writes it: `boolean`; `integer` with the width's `minimum` and
    ///   `maximum` (a `UInt64` or `UInt` above `Int64.max` is written as its decimal text, so it
    ///   may also be a string of digits); `number` for `Double` and `Float`; `string` for
    ///   `String`, `string` with `format` `date-time` for `Date` (ISO 8601 text),
    ///   `uri-reference` for `URL` (a `URL` may be relative), `uuid` for `UUID`,
    ///   `contentEncoding` `base64` for `Data`, and a pattern of decimal text for `Decimal`;
    ///   `enum` of the raw values for a `RawRepresentable` type that is `CaseIterable` (the
    ///   raw value's type otherwise); `array` with `items` for arrays, plus `uniqueItems` for
    ///   sets; `object` with `additionalProperties` for a dictionary with `String` keys, with
    ///   `propertyNames` too for `Int` keys (decimal text) and for `CodingKeyRepresentable`
    ///   keys of a `CaseIterable` type (their key texts), and for any other key type (which
    ///   `Codable` writes as a list alternating keys and values) `array` whose items are keys
    ///   or values;
    /// - for a `Codable` structure, `object` with its fields as `properties`, the non-optional
    ///   ones `required`, and no other fields (`additionalProperties: false`). The fields are
    ///   found by running the type's `init(from:)` against a decoder that records every field
    ///   asked for (and hands out placeholder values), so an optional setting of a structure is
    ///   described too. When that fails (an `init(from:)` that checks its values, an enum with
    ///   associated values), the fields are read from the default's stored form, and other
    ///   fields are allowed;
    /// - a type of unknown shape (a custom `StoredValueConvertible` conformance) as the shape
    ///   of its default, or as any value when it has none;
    /// - `default`: the default's stored form (none for optional settings, and none for
    ///   secrets);
    /// - `description`: the help text; a secret also has `writeOnly: true`, and its description
    ///   says that listings hide it.
    ///
    /// No property is required, and no value may be `null` at any depth: an absent key takes
    /// its default, an unset optional is absent from the file, and the file's parser refuses
    /// `null` (`FileStore` reads no stored value as null). Unless `strict`, keys that no
    /// setting declares are allowed, with any value but `null` (`additionalProperties` refers
    /// to the `storedValue` definition, which allows no `null` inside and no number beyond
    /// `Double`'s range, such as `1e400`): one file may serve several groups, an older or
    /// newer version of the tool may keep keys this one does not declare, and the library may
    /// keep bookkeeping keys of its own there. A `strict` schema, for a file that serves this
    /// group only, refuses any other key (`additionalProperties: false`), so an editor flags a
    /// misspelt key; it still allows the library's bookkeeping key
    /// (`MigratingStore.versionKey`, an integer).
    ///
    /// The file may be nested at most 64 levels deep, the file itself counted, as the reader
    /// allows: JSON Schema has no depth keyword, so the root refers to a chain of definitions
    /// (`depth64` to `depth0`), each allowing one level fewer inside it. What the store also
    /// refuses and JSON Schema cannot check is named in the schema's `description`: a lone
    /// UTF-16 surrogate in text (validators decode it as a string like any other), two
    /// canonically equivalent keys in one object (validators compare keys by their code
    /// points), and a file above 16 MiB.
    ///
    /// The schema is stricter than reading: values arrive leniently from hand-edited files
    /// (`"yes"` reads as `true`, `"42"` as `42`), but the schema asks for the form the store
    /// writes. A property-list settings file holds the same keys and shapes, with dates as
    /// `<date>` and data as `<data>` elements; the schema describes its JSON form only, since
    /// JSON Schema validates JSON.
    ///
    /// The settings are found as `settingDescriptions()` finds them, on an instance created
    /// on a throwaway in-memory store: no store is read.
    ///
    /// With `draft` ``JSONSchemaDraft/draft7``, the same schema is written in draft-07's
    /// keywords, for editors whose JSON service implements that draft (VS Code's does).
    ///
    /// - Parameters:
    ///   - title: The schema's `title`, such as `daybook settings`; none when `nil`.
    ///   - strict: Whether keys no setting declares are refused; `false` allows them.
    ///   - draft: The JSON Schema draft whose keywords the schema uses; draft 2020-12 by default.
    /// - Returns: The schema as JSON text with sorted keys, two-space indentation, empty
    ///   lists and objects as `[]` and `{}`, and a trailing newline.
    /// - Note: Safe to call from any thread.
    public static func jsonSchema(
        title: String? = nil, strict: Bool = false, draft: JSONSchemaDraft = .draft2020
    ) -> String {
        JSONSchemaDocument.text(for: declaredSettings(), title: title, strict: strict, draft: draft)
    }
}

/// A settings file's JSON Schema, built from the declared settings.
package enum JSONSchemaDocument {
    /// The draft the schema is built in; ``draft7(_:)`` rewrites it for draft-07.
    package static let dialect = "https://json-schema.org/draft/2020-12/schema"

    /// The schema of a file holding `settings`, as JSON text (see
    /// `SettingsGroup.jsonSchema(title:strict:draft:)`).
    package static func text(
        for settings: [(name: String, setting: any AnyStoredSetting)], title: String?, strict: Bool = false,
        draft: JSONSchemaDraft = .draft2020
    ) -> String {
        var properties = properties(of: settings)
        if strict {
            for key in LayeredStore.reservedKeys where properties[key] == nil {
                properties[key] = [
                    "type": "integer",
                    "description":
                        "Bookkeeping of the library: the version of the settings' layout migrations reached.",
                ]
            }
        }
        var document: [String: Any] = [
            "$schema": dialect,
            "type": "object",
            "description": strict ? strictDescription : description,
            "properties": properties,
            "additionalProperties": strict ? false : anyValueReference,
            "$ref": depthReference(StoredValueJSON.maximumDepth),
            "$defs": depthDefinitions.merging([anyValueName: anyValue]) { $1 },
        ]
        if let title { document["title"] = title }
        guard draft == .draft7 else { return json(document) }
        var rewritten = draft7(document) as? [String: Any] ?? [:]
        rewritten["$schema"] = "http://json-schema.org/draft-07/schema#"
        return json(rewritten)
    }

    /// `schema` in draft-07's keywords: `$defs` becomes `definitions`, and a `$ref` with other
    /// keywords beside it (which draft-07 would ignore) moves into an `allOf`.
    static func draft7(_ schema: Any) -> Any {
        if let list = schema as? [Any] { return list.map(draft7) }
        guard var object = schema as? [String: Any] else { return schema }
        object = object.mapValues(draft7)
        if let definitions = object.removeValue(forKey: "$defs") { object["definitions"] = definitions }
        if let reference = object["$ref"] as? String {
            let moved = ["$ref": reference.replacingOccurrences(of: "#/$defs/", with: "#/definitions/")]
            object.removeValue(forKey: "$ref")
            object = object.isEmpty ? moved : object.merging(["allOf": [moved]]) { $1 }
        }
        return object
    }

    /// The root's description: what the file is, and what the store refuses that JSON Schema
    /// cannot check.
    static let description =
        "A settings file: every key is optional (an absent key takes its default), and keys no setting "
        + "declares are allowed, holding any value but null, and the file is nested at most "
        + "\(StoredValueJSON.maximumDepth) levels deep. The store also refuses what this schema "
        + "cannot check: text holding a lone "
        + "UTF-16 surrogate (\\ud800 without its pair), two keys of one object that are canonically "
        + "equivalent (the same text in different Unicode forms), and a file larger than \(FileStore.Options.defaultMaximumFileSize / 1024 / 1024) MiB."

    /// The strict root's description: as ``description``, but keys no setting declares are
    /// refused.
    static let strictDescription = description.replacingOccurrences(
        of: "keys no setting declares are allowed, holding any value but null,",
        with: "keys no setting declares are refused,")

    /// A reference to the definition of a value holding containers at most `levels` deep,
    /// itself counted.
    static func depthReference(_ levels: Int) -> String { "#/$defs/depth\(levels)" }

    /// The chain that bounds nesting as the reader does: `depth0` is no array or object, and
    /// each `depthN` holds only `depth(N-1)` values.
    static var depthDefinitions: [String: Any] {
        var definitions: [String: Any] = ["depth0": ["not": ["type": ["array", "object"]]]]
        for levels in 1...StoredValueJSON.maximumDepth {
            let inner = ["$ref": depthReference(levels - 1)]
            definitions["depth\(levels)"] = ["items": inner, "additionalProperties": inner]
        }
        return definitions
    }

    /// The name of the definition of any value a settings file can hold.
    static let anyValueName = "storedValue"

    /// A reference to ``anyValue``: the schema of a value whose type the schema cannot name.
    static var anyValueReference: [String: Any] { ["$ref": "#/$defs/\(anyValueName)"] }

    /// Any value the store reads: no `null` at any depth, and numbers within `Double`'s range
    /// (`1e400` is refused).
    static var anyValue: [String: Any] {
        [
            "description": "Any value a settings file holds: no null anywhere, numbers within the range of Double.",
            "type": ["boolean", "number", "string", "array", "object"],
            "minimum": NSNumber(value: -Double.greatestFiniteMagnitude),
            "maximum": NSNumber(value: Double.greatestFiniteMagnitude),
            "items": anyValueReference,
            "additionalProperties": anyValueReference,
        ]
    }

    /// One property schema per setting, under its key.
    static func properties(of settings: [(name: String, setting: any AnyStoredSetting)]) -> [String: Any] {
        var properties: [String: Any] = [:]
        for (_, setting) in settings {
            let defaultValue = setting.defaultStoredValue
            var builder = JSONSchemaBuilder()
            var property: [String: Any]
            if let typed = setting as? any JSONSchemaValueTyped {
                property = builder.schema(for: typed.schemaValueType, default: defaultValue)
            } else {
                property = builder.schema(inferredFrom: defaultValue)
            }
            var description = setting.help ?? ""
            if setting.isSecret {
                property["writeOnly"] = true
                description += (description.isEmpty ? "" : " ") + "A secret: listings show it as \(ValueText.redacted)."
            } else if let defaultValue, let json = jsonValue(defaultValue) {
                property["default"] = json
            }
            if !description.isEmpty { property["description"] = description }
            properties[setting.key] = property
        }
        return properties
    }

    /// `value` as a `JSONSerialization` object, in the form a JSON settings file holds it:
    /// dates as ISO 8601 text, data as Base64 text; `nil` when it has no JSON form (NaN, an
    /// infinity, a date beyond ISO 8601 text), as a JSON settings file cannot hold it either.
    static func jsonValue(_ value: StoredValue) -> Any? {
        switch value {
        case .bool(let flag): return flag
        case .int(let number): return NSNumber(value: number)
        case .double(let number): return number.isFinite ? NSNumber(value: number) : nil
        case .string(let text): return text
        case .data(let data): return data.base64EncodedString()
        case .date(let date): return DateText.string(from: date)
        case .array(let items):
            var result: [Any] = []
            for item in items {
                guard let json = jsonValue(item) else { return nil }
                result.append(json)
            }
            return result
        case .dictionary(let items):
            var result: [String: Any] = [:]
            for (key, item) in items {
                guard let json = jsonValue(item) else { return nil }
                result[key] = json
            }
            return result
        }
    }

    /// Pretty JSON text with sorted keys, from `JSONSerialization`, with empty lists and
    /// objects as `[]` and `{}` (Foundation on Linux spreads them over lines).
    static func json(_ object: [String: Any]) -> String {
        // The objects are built from strings, numbers, Booleans, arrays and dictionaries only,
        // with finite numbers (NaN and infinities have no stored JSON form, and defaults that
        // do not encode are left out), so serialization does not fail.
        guard
            JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        else { return "{}\n" }
        // A line break is never inside JSON text (strings escape it), so each match is an
        // empty container.
        return String(decoding: data, as: UTF8.self)
            .replacing(#/\[\n[ \n]*\]/#, with: "[]")
            .replacing(#/\{\n[ \n]*\}/#, with: "{}") + "\n"
    }
}

/// A setting whose value type the schema can name: `Stored`, with optionals unwrapped.
package protocol JSONSchemaValueTyped {
    /// The setting's value type, the wrapped type for an optional.
    var schemaValueType: Any.Type { get }
}

extension Stored: JSONSchemaValueTyped {
    package var schemaValueType: Any.Type { ValueTypeInfo.unwrapped(Value.self) }
}
