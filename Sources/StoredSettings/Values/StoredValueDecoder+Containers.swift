import Foundation

// MARK: - Keyed

/// Reads the entries of a `dictionary` value for ``StoredValueDecoder``.
///
/// A missing key, or an entry of the wrong kind, throws `DecodingError` with the coding path
/// (built only then). `decodeIfPresent` and `decodeNil(forKey:)` treat a missing key as `nil`:
/// stored trees keep no `nil`s, a `nil` is written as an absent key.
struct StoredKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: StoredValueDecoding
    let items: [String: StoredValue]
    let depth: Int

    var codingPath: [any CodingKey] { decoder.path(depth) }

    var allKeys: [Key] { items.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { items[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool { items[key.stringValue] == nil }

    @inline(__always)
    private func entry(_ key: Key, _ type: Any.Type) throws -> StoredValue {
        guard let value = items[key.stringValue] else {
            let storageError = StorageError(
                .typeMismatch, expectedType: typeName(type), foundKind: "nothing", message: "the field is missing")
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: decoder.path(depth) + [key], debugDescription: storageError.detail,
                    underlyingError: storageError
                ))
        }
        return value
    }

    @inline(__always)
    private func scalar<T: StoredValueConvertible>(_ type: T.Type, _ key: Key) throws -> T {
        try decoder.scalar(T.self, entry(key, T.self), depth: depth, key: key)
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(Bool.self, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(String.self, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(Double.self, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try scalar(Float.self, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(Int.self, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try scalar(Int8.self, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try scalar(Int16.self, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try scalar(Int32.self, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try scalar(Int64.self, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try scalar(UInt.self, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try scalar(UInt8.self, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try scalar(UInt16.self, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try scalar(UInt32.self, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try scalar(UInt64.self, key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder.decodeNested(T.self, from: entry(key, T.self), depth: depth, key: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder.child(entry(key, [String: Any].self), depth: depth, key: key).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.child(entry(key, [Any].self), depth: depth, key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.child(items["super"] ?? .dictionary([:]), depth: depth, key: SuperCodingKey())
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.child(items[key.stringValue] ?? .dictionary([:]), depth: depth, key: key)
    }
}

// MARK: - Unkeyed

/// Reads the items of an `array` value, in order, for ``StoredValueDecoder``.
struct StoredUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let decoder: StoredValueDecoding
    let items: [StoredValue]
    let depth: Int
    private(set) var currentIndex = 0

    init(decoder: StoredValueDecoding, items: [StoredValue], depth: Int) {
        self.decoder = decoder
        self.items = items
        self.depth = depth
    }

    var codingPath: [any CodingKey] { decoder.path(depth) }
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    /// The next item; throws `valueNotFound` past the end.
    @inline(__always)
    private mutating func next(_ type: Any.Type) throws -> (StoredValue, IndexCodingKey) {
        let key = IndexCodingKey(index: currentIndex)
        guard currentIndex < items.count else {
            let storageError = StorageError(
                .typeMismatch, expectedType: typeName(type), foundKind: "nothing",
                message: "the array has no more items")
            throw DecodingError.valueNotFound(
                type,
                DecodingError.Context(
                    codingPath: decoder.path(depth) + [key], debugDescription: storageError.detail,
                    underlyingError: storageError
                ))
        }
        currentIndex += 1
        return (items[key.index], key)
    }

    @inline(__always)
    private mutating func scalar<T: StoredValueConvertible>(_ type: T.Type) throws -> T {
        let (value, key) = try next(T.self)
        return try decoder.scalar(T.self, value, depth: depth, key: key)
    }

    mutating func decodeNil() throws -> Bool {
        if isAtEnd { _ = try next(Any?.self) }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try scalar(Bool.self) }
    mutating func decode(_ type: String.Type) throws -> String { try scalar(String.self) }
    mutating func decode(_ type: Double.Type) throws -> Double { try scalar(Double.self) }
    mutating func decode(_ type: Float.Type) throws -> Float { try scalar(Float.self) }
    mutating func decode(_ type: Int.Type) throws -> Int { try scalar(Int.self) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try scalar(Int8.self) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try scalar(Int16.self) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try scalar(Int32.self) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try scalar(Int64.self) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try scalar(UInt.self) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(UInt8.self) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(UInt16.self) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(UInt32.self) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(UInt64.self) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, key) = try next(T.self)
        return try decoder.decodeNested(T.self, from: value, depth: depth, key: key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        let (value, key) = try next([String: Any].self)
        return try decoder.child(value, depth: depth, key: key).container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, key) = try next([Any].self)
        return try decoder.child(value, depth: depth, key: key).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, key) = try next(Any.self)
        return decoder.child(value, depth: depth, key: key)
    }
}
