import Foundation
import StoredSettings

/// Finds the fields of a `Decodable` structure without a value of it: runs the type's
/// `init(from:)` against a decoder that records each field the initializer asks its keyed
/// container for (name, type, and whether it used `decodeIfPresent`) and answers with
/// placeholder values (`0`, `""`, `false`, an empty collection, the first case of a
/// `CaseIterable` enum, a structure built the same way).
///
/// This finds the fields of synthesized `Codable` conformances and of hand-written ones that
/// read their fields unconditionally. An initializer that checks the values it gets (and
/// throws for the placeholders), reads `allKeys`, or uses another kind of container gives no
/// fields (`nil`); the schema then falls back to the shape of the setting's default.
enum JSONSchemaFieldProbe {
    /// A field an initializer asked for.
    struct Field {
        var name: String
        var type: Any.Type
        /// Whether the initializer used `decode` (not `decodeIfPresent`).
        var isRequired: Bool
    }

    /// The fields of `type`, or `nil` when its initializer cannot be probed.
    static func fields(of type: any Decodable.Type) -> [Field]? {
        let recorder = Recorder()
        do {
            _ = try type.init(from: ProbeDecoder(recorder: recorder, depth: 0))
        } catch {
            return nil
        }
        guard recorder.usedKeyedContainer, !recorder.usedOtherContainer else { return nil }
        return recorder.fields
    }

    /// What one probe saw. Used by one probe on one thread only.
    final class Recorder {
        var fields: [Field] = []
        var usedKeyedContainer = false
        var usedOtherContainer = false
    }

    /// Thrown when a placeholder cannot be made.
    struct NoPlaceholder: Error {}

    /// A placeholder value of `type`: what the decoder answers for a field.
    static func placeholder<T: Decodable>(_ type: T.Type, depth: Int) throws -> T {
        let known: Any? =
            switch type {
            case is Date.Type: Date(timeIntervalSinceReferenceDate: 0)
            case is Data.Type: Data()
            case is URL.Type: URL(fileURLWithPath: "/")
            case is UUID.Type: UUID()
            case is Decimal.Type: Decimal()
            default: nil
            }
        if let value = known as? T { return value }
        if let cases = type as? any CaseIterable.Type, let value = firstCase(of: cases) as? T { return value }
        guard depth < JSONSchemaBuilder.maximumDepth else { throw NoPlaceholder() }
        return try T(from: ProbeDecoder(recorder: nil, depth: depth + 1))
    }

    private static func firstCase<T: CaseIterable>(of _: T.Type) -> Any? {
        T.allCases.first
    }
}

/// The probing decoder; only the outermost one records.
private struct ProbeDecoder: Decoder {
    let recorder: JSONSchemaFieldProbe.Recorder?
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedDecodingContainer<Key> {
        recorder?.usedKeyedContainer = true
        return KeyedDecodingContainer(ProbeKeyedContainer<Key>(recorder: recorder, depth: depth))
    }

    func unkeyedContainer() -> any UnkeyedDecodingContainer {
        recorder?.usedOtherContainer = true
        return ProbeUnkeyedContainer()
    }

    func singleValueContainer() -> any SingleValueDecodingContainer {
        recorder?.usedOtherContainer = true
        return ProbeSingleValueContainer(depth: depth)
    }
}

/// Records each field asked for and answers with a placeholder (`nil` for `decodeIfPresent`).
private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: JSONSchemaFieldProbe.Recorder?
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }

    func contains(_: Key) -> Bool { true }
    func decodeNil(forKey _: Key) -> Bool { false }

    /// Records a field read with `decode`, answering `placeholder`.
    private func required<T>(_ type: T.Type, _ key: Key, _ placeholder: T) -> T {
        recorder?.fields.append(.init(name: key.stringValue, type: type, isRequired: true))
        return placeholder
    }

    /// Records a field read with `decodeIfPresent`, answering that it is absent.
    private func optional<T>(_ type: T.Type, _ key: Key) -> T? {
        recorder?.fields.append(.init(name: key.stringValue, type: type, isRequired: false))
        return nil
    }

    func decode(_ type: Bool.Type, forKey key: Key) -> Bool { required(type, key, false) }
    func decode(_ type: String.Type, forKey key: Key) -> String { required(type, key, "") }
    func decode(_ type: Double.Type, forKey key: Key) -> Double { required(type, key, 0) }
    func decode(_ type: Float.Type, forKey key: Key) -> Float { required(type, key, 0) }
    func decode(_ type: Int.Type, forKey key: Key) -> Int { required(type, key, 0) }
    func decode(_ type: Int8.Type, forKey key: Key) -> Int8 { required(type, key, 0) }
    func decode(_ type: Int16.Type, forKey key: Key) -> Int16 { required(type, key, 0) }
    func decode(_ type: Int32.Type, forKey key: Key) -> Int32 { required(type, key, 0) }
    func decode(_ type: Int64.Type, forKey key: Key) -> Int64 { required(type, key, 0) }
    func decode(_ type: UInt.Type, forKey key: Key) -> UInt { required(type, key, 0) }
    func decode(_ type: UInt8.Type, forKey key: Key) -> UInt8 { required(type, key, 0) }
    func decode(_ type: UInt16.Type, forKey key: Key) -> UInt16 { required(type, key, 0) }
    func decode(_ type: UInt32.Type, forKey key: Key) -> UInt32 { required(type, key, 0) }
    func decode(_ type: UInt64.Type, forKey key: Key) -> UInt64 { required(type, key, 0) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let placeholder = try JSONSchemaFieldProbe.placeholder(type, depth: depth)
        // `decode(Int?.self, forKey:)` reads an optional field, as `decodeIfPresent` does.
        if type is any OptionalValue.Type { return optional(type, key) ?? placeholder }
        return required(type, key, placeholder)
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) -> Bool? { optional(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) -> String? { optional(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) -> Double? { optional(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) -> Float? { optional(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) -> Int? { optional(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) -> Int8? { optional(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) -> Int16? { optional(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) -> Int32? { optional(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) -> Int64? { optional(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) -> UInt? { optional(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) -> UInt8? { optional(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) -> UInt16? { optional(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) -> UInt32? { optional(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) -> UInt64? { optional(type, key) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) -> T? { optional(type, key) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey _: Key) -> KeyedDecodingContainer<
        NestedKey
    > {
        recorder?.usedOtherContainer = true
        return KeyedDecodingContainer(ProbeKeyedContainer<NestedKey>(recorder: nil, depth: depth + 1))
    }

    func nestedUnkeyedContainer(forKey _: Key) -> any UnkeyedDecodingContainer {
        recorder?.usedOtherContainer = true
        return ProbeUnkeyedContainer()
    }

    func superDecoder() -> any Decoder {
        recorder?.usedOtherContainer = true
        return ProbeDecoder(recorder: nil, depth: depth + 1)
    }

    func superDecoder(forKey _: Key) -> any Decoder {
        recorder?.usedOtherContainer = true
        return ProbeDecoder(recorder: nil, depth: depth + 1)
    }
}

/// An empty list: collections decode as empty.
private struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }

    mutating func decodeNil() throws -> Bool { throw JSONSchemaFieldProbe.NoPlaceholder() }
    mutating func decode<T: Decodable>(_: T.Type) throws -> T { throw JSONSchemaFieldProbe.NoPlaceholder() }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        throw JSONSchemaFieldProbe.NoPlaceholder()
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw JSONSchemaFieldProbe.NoPlaceholder()
    }
    mutating func superDecoder() throws -> any Decoder { throw JSONSchemaFieldProbe.NoPlaceholder() }
}

/// A single value: a placeholder of the type asked for.
private struct ProbeSingleValueContainer: SingleValueDecodingContainer {
    let depth: Int
    var codingPath: [any CodingKey] { [] }

    func decodeNil() -> Bool { false }
    func decode(_: Bool.Type) -> Bool { false }
    func decode(_: String.Type) -> String { "" }
    func decode(_: Double.Type) -> Double { 0 }
    func decode(_: Float.Type) -> Float { 0 }
    func decode(_: Int.Type) -> Int { 0 }
    func decode(_: Int8.Type) -> Int8 { 0 }
    func decode(_: Int16.Type) -> Int16 { 0 }
    func decode(_: Int32.Type) -> Int32 { 0 }
    func decode(_: Int64.Type) -> Int64 { 0 }
    func decode(_: UInt.Type) -> UInt { 0 }
    func decode(_: UInt8.Type) -> UInt8 { 0 }
    func decode(_: UInt16.Type) -> UInt16 { 0 }
    func decode(_: UInt32.Type) -> UInt32 { 0 }
    func decode(_: UInt64.Type) -> UInt64 { 0 }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONSchemaFieldProbe.placeholder(type, depth: depth)
    }
}
