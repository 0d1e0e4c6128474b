import Foundation
import StoredSettings

/// Builds the JSON Schema of one setting's value from its Swift type (see
/// `SettingsGroup.jsonSchema(title:strict:draft:)` for the rules), as `JSONSerialization` objects.
struct JSONSchemaBuilder {
    /// The deepest nesting of types described; deeper types are described as any value but
    /// `null`.
    static let maximumDepth = 32

    /// The structure types being described, so a type that contains itself ends the walk.
    private var describing: Set<ObjectIdentifier> = []

    /// The schema of values of `type` (not optional), using `defaultValue` where the type alone
    /// does not tell the shape.
    mutating func schema(for type: Any.Type, default defaultValue: StoredValue? = nil) -> [String: Any] {
        if let known = Self.scalarSchema(for: type) { return known }
        if let sequence = type as? any JSONSchemaSequence.Type {
            var schema: [String: Any] = ["type": "array"]
            let items = nested(sequence.schemaElementType, default: Self.firstItem(of: defaultValue))
            if !items.isEmpty { schema["items"] = items }
            if sequence.schemaHasUniqueElements { schema["uniqueItems"] = true }
            return schema
        }
        if let dictionary = type as? any JSONSchemaDictionary.Type {
            return self.dictionary(key: dictionary.schemaKeyType, value: dictionary.schemaValueType)
        }
        if let raw = type as? any RawRepresentable.Type {
            if let cases = type as? any CaseIterable.Type, let values = Self.rawValues(of: cases) {
                return ["enum": values]
            }
            return nested(Self.rawValueType(of: raw), default: nil)
        }
        if let decodable = type as? any Decodable.Type, let fields = JSONSchemaFieldProbe.fields(of: decodable) {
            return structure(type, fields: fields)
        }
        return schema(inferredFrom: defaultValue)
    }

    /// The schema of an unknown type, from the shape of a stored value; any value but `null`
    /// when there is none.
    func schema(inferredFrom value: StoredValue?) -> [String: Any] {
        switch value {
        case nil: return JSONSchemaDocument.anyValueReference
        case .bool: return ["type": "boolean"]
        case .int: return ["type": "integer"]
        case .double: return Self.finiteNumber
        case .string: return ["type": "string"]
        case .date: return ["type": "string", "format": "date-time"]
        case .data: return ["type": "string", "contentEncoding": "base64"]
        case .array: return ["type": "array", "items": JSONSchemaDocument.anyValueReference]
        case .dictionary(let items):
            return [
                "type": "object", "properties": items.mapValues { schema(inferredFrom: $0) },
                "additionalProperties": JSONSchemaDocument.anyValueReference,
            ]
        }
    }

    // MARK: - Parts

    /// The schema of a type inside another, guarded against endless nesting.
    private mutating func nested(_ type: Any.Type, default defaultValue: StoredValue?) -> [String: Any] {
        let type = ValueTypeInfo.unwrapped(type)
        let identifier = ObjectIdentifier(type)
        guard describing.count < Self.maximumDepth, !describing.contains(identifier) else {
            return JSONSchemaDocument.anyValueReference
        }
        describing.insert(identifier)
        defer { describing.remove(identifier) }
        return schema(for: type, default: defaultValue)
    }

    /// A dictionary as `Codable` writes it: an object for `String`, `Int` and
    /// `CodingKeyRepresentable` keys (an `Int` key as its decimal text, an enum's keys among its
    /// cases' key texts), and for any other key type a list alternating keys and values.
    private mutating func dictionary(key: Any.Type, value: Any.Type) -> [String: Any] {
        let values = nested(value, default: nil)
        var names: [String: Any]?
        if key == String.self {
            names = [:]
        } else if key == Int.self {
            names = ["pattern": "^-?[0-9]+$"]
        } else if let representable = key as? any CodingKeyRepresentable.Type {
            names = Self.codingKeyTexts(of: representable).map { ["enum": $0] } ?? [:]
        }
        guard let names else {
            let keys = nested(key, default: nil)
            return ["type": "array", "items": ["anyOf": [keys, values]]]
        }
        var schema: [String: Any] = ["type": "object"]
        if !names.isEmpty { schema["propertyNames"] = names }
        if !values.isEmpty { schema["additionalProperties"] = values }
        return schema
    }

    /// The key texts of every case of a `CaseIterable` key type; `nil` for other key types.
    private static func codingKeyTexts(of type: any CodingKeyRepresentable.Type) -> [String]? {
        guard let cases = type as? any CaseIterable.Type else { return nil }
        return codingKeyTexts(ofCases: cases)
    }

    private static func codingKeyTexts<T: CaseIterable>(ofCases _: T.Type) -> [String]? {
        var texts: [String] = []
        for value in T.allCases {
            guard let key = value as? any CodingKeyRepresentable else { return nil }
            texts.append(key.codingKey.stringValue)
        }
        return texts
    }

    /// An object with the probed fields of a `Codable` structure.
    private mutating func structure(_ type: Any.Type, fields: [JSONSchemaFieldProbe.Field]) -> [String: Any] {
        let identifier = ObjectIdentifier(type)
        describing.insert(identifier)
        defer { describing.remove(identifier) }
        var properties: [String: Any] = [:]
        var required: [String] = []
        for field in fields {
            properties[field.name] = nested(field.type, default: nil)
            if field.isRequired && !required.contains(field.name) { required.append(field.name) }
        }
        var schema: [String: Any] = ["type": "object", "properties": properties, "additionalProperties": false]
        if !required.isEmpty { schema["required"] = required.sorted() }
        return schema
    }

    /// The schemas of types whose stored form the package fixes.
    private static func scalarSchema(for type: Any.Type) -> [String: Any]? {
        if type == Bool.self { return ["type": "boolean"] }
        if type == String.self { return ["type": "string"] }
        if type == Date.self { return ["type": "string", "format": "date-time"] }
        if type == URL.self { return ["type": "string", "format": "uri-reference"] }
        if type == UUID.self { return ["type": "string", "format": "uuid"] }
        if type == Data.self { return ["type": "string", "contentEncoding": "base64"] }
        if type == Decimal.self {
            // `Decimal` is stored as its `description`: digits, a `.` and more digits.
            return ["type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?$"]
        }
        if type is any BinaryFloatingPoint.Type { return finiteNumber }
        if let integer = type as? any FixedWidthInteger.Type { return integerSchema(integer) }
        return nil
    }

    /// A `number` within `Double`'s range: the parser refuses `1e400` rather than read it as
    /// infinity.
    static var finiteNumber: [String: Any] {
        [
            "type": "number", "minimum": NSNumber(value: -Double.greatestFiniteMagnitude),
            "maximum": NSNumber(value: Double.greatestFiniteMagnitude),
        ]
    }

    /// `integer` with the width's bounds; for widths beyond `Int64.max` also the decimal text
    /// the store writes for values above it.
    private static func integerSchema<T: FixedWidthInteger>(_: T.Type) -> [String: Any] {
        guard T.bitWidth <= 64 else { return ["type": "integer"] }
        if let maximum = Int64(exactly: T.max), let minimum = Int64(exactly: T.min) {
            return ["type": "integer", "minimum": NSNumber(value: minimum), "maximum": NSNumber(value: maximum)]
        }
        let maximum = UInt64(truncatingIfNeeded: T.max)
        return [
            "anyOf": [
                ["type": "integer", "minimum": 0, "maximum": NSNumber(value: maximum)] as [String: Any],
                [
                    "type": "string", "pattern": "^[0-9]+$",
                    "description": "A value above \(Int64.max), as the store writes it: its decimal text.",
                ],
            ]
        ]
    }

    /// The stored forms of every case, as JSON values; `nil` when a case does not encode.
    private static func rawValues<T: CaseIterable>(of _: T.Type) -> [Any]? {
        var values: [Any] = []
        for value in T.allCases {
            guard let convertible = value as? any StoredValueConvertible,
                let stored = try? convertible.storedValue(),
                let json = JSONSchemaDocument.jsonValue(stored)
            else { return nil }
            values.append(json)
        }
        return values
    }

    private static func rawValueType<T: RawRepresentable>(of _: T.Type) -> Any.Type {
        T.RawValue.self
    }

    private static func firstItem(of value: StoredValue?) -> StoredValue? {
        guard case .array(let items) = value else { return nil }
        return items.first
    }
}

/// An array or a set, whose element type the schema names.
protocol JSONSchemaSequence {
    /// The element type.
    static var schemaElementType: Any.Type { get }
    /// Whether no element occurs twice (a set).
    static var schemaHasUniqueElements: Bool { get }
}

extension Array: JSONSchemaSequence {
    static var schemaElementType: Any.Type { Element.self }
    static var schemaHasUniqueElements: Bool { false }
}

extension Set: JSONSchemaSequence {
    static var schemaElementType: Any.Type { Element.self }
    static var schemaHasUniqueElements: Bool { true }
}

/// A dictionary, whose key and value types the schema names.
protocol JSONSchemaDictionary {
    /// The key type.
    static var schemaKeyType: Any.Type { get }
    /// The value type.
    static var schemaValueType: Any.Type { get }
}

extension Dictionary: JSONSchemaDictionary {
    static var schemaKeyType: Any.Type { Key.self }
    static var schemaValueType: Any.Type { Value.self }
}
