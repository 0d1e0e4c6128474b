import Foundation

/// Decodes `Decodable` values from ``StoredValue`` trees, with no detour through JSON.
///
/// This is how a `Codable` ``StoredValueConvertible`` type reads its stored form; use it
/// directly to read a tree you got from a store.
///
/// ```swift
/// struct Window: Codable, Equatable { var width: Int; var height: Int }
/// let tree: StoredValue = .dictionary(["width": .int(800), "height": .int(600)])
/// let window = try StoredValueDecoder().decode(Window.self, from: tree)
/// ```
///
/// Every scalar, and `Date`, `Data`, `URL`, `UUID` and `Decimal`, reads what its
/// ``StoredValueConvertible`` conformance reads, text included; a `string` of JSON object or
/// array text reads as that structure (see <doc:SupportedTypes>). The containers throw
/// `DecodingError`, which a hand-written `init(from:)` can catch; ``decode(_:from:)`` turns
/// every failure into a ``StorageError``.
///
/// Thread-safety: a `StoredValueDecoder` is a value; use it from any thread or task.
public struct StoredValueDecoder: Sendable {
    /// Values handed to `init(from:)` implementations through `Decoder.userInfo`.
    let userInfo: [CodingUserInfoKey: any Sendable]

    /// Creates a decoder.
    ///
    /// - Parameter userInfo: Values for `Decoder.userInfo`.
    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.userInfo = userInfo
    }

    /// Decodes a value of `type` from `value`.
    ///
    /// - Throws: ``StorageError`` with the ``StorageError/codingPath`` of the failure:
    ///   ``StorageError/Code/typeMismatch`` naming the expected type and the found kind
    ///   (`nothing` for a missing field); ``StorageError/Code/dataCorrupted`` for a value of the
    ///   right kind that is not valid for its type (an enum case that does not exist).
    /// - Complexity: O(n) in the number of nodes decoded.
    public func decode<T: Decodable>(_ type: T.Type, from value: StoredValue) throws -> T {
        let decoder = StoredValueDecoding(value: value, keys: [], userInfo: userInfo)
        do {
            return try decoder.decodeCurrent(T.self)
        } catch {
            var storageError = StorageError.decoding(error, type: T.self)
            if storageError.expectedType == nil, storageError.codingPath.isEmpty {
                storageError.expectedType = typeName(T.self)
            }
            throw storageError
        }
    }
}

/// The `Decoder` behind ``StoredValueDecoder``: one instance per top-level decode.
///
/// It is its own single-value container, and decodes nested values by swapping `value` and
/// pushing the key on `keys` (no new decoder per nested value). Containers remember the depth
/// of `keys` at which they were made, so coding paths are only built when an error is thrown.
final class StoredValueDecoding: Decoder, SingleValueDecodingContainer {
    /// The value being decoded at the current level.
    var value: StoredValue
    /// The coding path of the current level.
    var keys: [any CodingKey]
    let info: [CodingUserInfoKey: any Sendable]
    /// How many `init(from:)` calls are running on this decoder: nested values, and values
    /// read through single-value containers, which add no key.
    var recursion: Int

    init(value: StoredValue, keys: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable], recursion: Int = 0) {
        self.value = value
        self.keys = keys
        self.info = userInfo
        self.recursion = recursion
    }

    var codingPath: [any CodingKey] { keys }

    var userInfo: [CodingUserInfoKey: Any] { info }

    /// The first `depth` keys of the current path.
    func path(_ depth: Int) -> [any CodingKey] {
        Array(keys.prefix(depth))
    }

    /// A decoder for a child value with its own path: for nested containers and
    /// `superDecoder`, which may be used out of order.
    func child(_ value: StoredValue, depth: Int, key: any CodingKey) -> StoredValueDecoding {
        StoredValueDecoding(value: value, keys: path(depth) + [key], userInfo: info, recursion: recursion)
    }

    // MARK: - Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        try checkDepth()
        if case .dictionary(let items) = value {
            return KeyedDecodingContainer(StoredKeyedDecodingContainer(decoder: self, items: items, depth: keys.count))
        }
        if case .string = value, case .dictionary(let items) = try value.parsingJSONText(as: .dictionary) {
            return KeyedDecodingContainer(StoredKeyedDecodingContainer(decoder: self, items: items, depth: keys.count))
        }
        throw containerMismatch([String: Any].self, expected: "a dictionary")
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try checkDepth()
        if case .array(let items) = value {
            return StoredUnkeyedDecodingContainer(decoder: self, items: items, depth: keys.count)
        }
        if case .string = value, case .array(let items) = try value.parsingListText(expectedType: "an array") {
            return StoredUnkeyedDecodingContainer(decoder: self, items: items, depth: keys.count)
        }
        throw containerMismatch([Any].self, expected: "an array")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: - Decoding values

    /// Decodes the current value as `T`.
    @inline(__always)
    func decodeCurrent<T: Decodable>(_ type: T.Type) throws -> T {
        if let special = try decodeSpecial(T.self, from: value, depth: keys.count, key: nil as IndexCodingKey?) {
            return special
        }
        try checkDepth()
        recursion += 1
        defer { recursion -= 1 }
        do {
            return try T(from: self)
        } catch {
            throw naming(error, T.self)
        }
    }

    /// Decodes `child`, found under `key` of a container at `depth`, as `T`.
    @inline(__always)
    func decodeNested<T: Decodable, K: CodingKey>(_ type: T.Type, from child: StoredValue, depth: Int, key: K) throws
        -> T
    {
        if let special = try decodeSpecial(T.self, from: child, depth: depth, key: key) {
            return special
        }
        let saved = value
        value = child
        keys.append(key)
        recursion += 1
        defer {
            value = saved
            keys.removeLast()
            recursion -= 1
        }
        try checkDepth()
        do {
            return try T(from: self)
        } catch {
            throw naming(error, T.self)
        }
    }

    /// The types with a stored form of their own (and, for speed, the common scalars), read
    /// through their ``StoredValueConvertible`` conformance; `nil` for every other type.
    @inline(__always)
    private func decodeSpecial<T: Decodable, K: CodingKey>(
        _ type: T.Type, from value: StoredValue, depth: Int, key: K?
    ) throws -> T? {
        if T.self == String.self { return try scalar(String.self, value, depth: depth, key: key) as? T }
        if T.self == Int.self { return try scalar(Int.self, value, depth: depth, key: key) as? T }
        if T.self == Double.self { return try scalar(Double.self, value, depth: depth, key: key) as? T }
        if T.self == Bool.self { return try scalar(Bool.self, value, depth: depth, key: key) as? T }
        if T.self == Date.self { return try scalar(Date.self, value, depth: depth, key: key) as? T }
        if T.self == Data.self { return try scalar(Data.self, value, depth: depth, key: key) as? T }
        if T.self == URL.self { return try scalar(URL.self, value, depth: depth, key: key) as? T }
        if T.self == UUID.self { return try scalar(UUID.self, value, depth: depth, key: key) as? T }
        if T.self == Decimal.self { return try scalar(Decimal.self, value, depth: depth, key: key) as? T }
        return nil
    }

    /// `T(storedValue:)`, with a failure turned into a `DecodingError` at `depth` + `key`.
    @inline(__always)
    func scalar<T: StoredValueConvertible, K: CodingKey>(_ type: T.Type, _ value: StoredValue, depth: Int, key: K?)
        throws -> T
    {
        do {
            return try T(storedValue: value)
        } catch {
            var path = path(depth)
            if let key { path.append(key) }
            throw Self.decodingError(error, T.self, value, path: path)
        }
    }

    /// A scalar of the single-value container.
    @inline(__always)
    private func scalar<T: StoredValueConvertible>(_ type: T.Type) throws -> T {
        try scalar(T.self, value, depth: keys.count, key: nil as IndexCodingKey?)
    }

    // MARK: - Errors

    /// Throws ``StorageError/Code/nestingTooDeep`` beyond the depth settings files allow, or the
    /// encoder's recursion limit: a tree built in memory must not overflow the stack.
    @inline(__always)
    private func checkDepth() throws {
        guard keys.count > StoredValueJSON.maximumDepth || recursion >= StoredValueEncoding.maximumRecursion else {
            return
        }
        let storageError = StorageError(
            .nestingTooDeep, message: "nesting deeper than \(StoredValueJSON.maximumDepth) levels")
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: keys, debugDescription: storageError.detail, underlyingError: storageError
            ))
    }

    /// A `DecodingError` carrying the ``StorageError`` that says what was expected and found.
    static func decodingError(_ error: any Error, _ type: Any.Type, _ value: StoredValue, path: [any CodingKey])
        -> DecodingError
    {
        var storageError = error as? StorageError ?? StorageError.typeMismatch(type, found: value)
        storageError.codingPath = []
        if storageError.expectedType == nil { storageError.expectedType = typeName(type) }
        if storageError.foundKind == nil { storageError.foundKind = value.kind }
        let context = DecodingError.Context(
            codingPath: path, debugDescription: storageError.detail, underlyingError: storageError)
        if storageError.code == .dataCorrupted { return .dataCorrupted(context) }
        return .typeMismatch(type, context)
    }

    /// A container of the wrong kind: the type is named by ``naming(_:_:)`` on the way out.
    private func containerMismatch(_ type: Any.Type, expected: String) -> DecodingError {
        let storageError = StorageError(.typeMismatch, foundKind: value.kind, message: nil)
        return .typeMismatch(
            type,
            DecodingError.Context(
                codingPath: keys, debugDescription: "expected \(expected), found \(value.kind)",
                underlyingError: storageError
            ))
    }

    /// Adds the type being decoded, and the found kind, to an error thrown at this level that
    /// does not name them yet (a container of the wrong kind, an enum case that does not exist).
    /// Runs on error paths only.
    private func naming(_ error: any Error, _ type: Any.Type) -> any Error {
        guard let decodingError = error as? DecodingError else { return error }
        switch decodingError {
        case .typeMismatch(let expected, let context) where context.codingPath.count == keys.count:
            guard var storageError = context.underlyingError as? StorageError, storageError.expectedType == nil else {
                return error
            }
            storageError.expectedType = typeName(type)
            return DecodingError.typeMismatch(
                expected,
                DecodingError.Context(
                    codingPath: context.codingPath, debugDescription: storageError.detail, underlyingError: storageError
                ))
        case .dataCorrupted(let context)
        where context.codingPath.count == keys.count && !(context.underlyingError is StorageError):
            let storageError = StorageError(
                .dataCorrupted, expectedType: typeName(type), foundKind: value.kind,
                message: "the value is not valid for its type"
            )
            return DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: context.codingPath, debugDescription: storageError.detail, underlyingError: storageError
                ))
        default:
            return error
        }
    }

    // MARK: - SingleValueDecodingContainer

    func decodeNil() -> Bool { false }
    func decode(_ type: Bool.Type) throws -> Bool { try scalar(Bool.self) }
    func decode(_ type: String.Type) throws -> String { try scalar(String.self) }
    func decode(_ type: Double.Type) throws -> Double { try scalar(Double.self) }
    func decode(_ type: Float.Type) throws -> Float { try scalar(Float.self) }
    func decode(_ type: Int.Type) throws -> Int { try scalar(Int.self) }
    func decode(_ type: Int8.Type) throws -> Int8 { try scalar(Int8.self) }
    func decode(_ type: Int16.Type) throws -> Int16 { try scalar(Int16.self) }
    func decode(_ type: Int32.Type) throws -> Int32 { try scalar(Int32.self) }
    func decode(_ type: Int64.Type) throws -> Int64 { try scalar(Int64.self) }
    func decode(_ type: UInt.Type) throws -> UInt { try scalar(UInt.self) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try scalar(UInt8.self) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try scalar(UInt16.self) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try scalar(UInt32.self) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try scalar(UInt64.self) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeCurrent(T.self) }
}
