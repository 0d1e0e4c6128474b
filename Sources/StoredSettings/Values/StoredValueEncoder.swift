import Foundation

/// Encodes `Encodable` values as ``StoredValue`` trees, with no detour through JSON.
///
/// This is how a `Codable` ``StoredValueConvertible`` type gets its stored form: a nested tree
/// that a JSON settings file shows as an object a person can read and edit.
///
/// ```swift
/// struct Window: Codable { var width = 800; var height = 600; var title: String? = nil }
/// let tree = try StoredValueEncoder().encode(Window())
/// // .dictionary(["width": .int(800), "height": .int(600)])
/// ```
///
/// `nil` in a keyed container is an absent key; `Date`, `Data`, `URL`, `UUID` and `Decimal`
/// take their ``StoredValueConvertible`` forms; `superEncoder()` writes under the key `super`.
/// <doc:SupportedTypes> shows the tree of each type.
///
/// Thread-safety: a `StoredValueEncoder` is a value; use it from any thread or task.
public struct StoredValueEncoder: Sendable {
    /// Values handed to `encode(to:)` implementations through `Encoder.userInfo`.
    let userInfo: [CodingUserInfoKey: any Sendable]

    /// The deepest nesting of containers accepted, counting the value's own container as 1:
    /// settings files refuse to read deeper trees.
    package static let maximumDepth = StoredValueJSON.maximumDepth - 1

    /// Creates an encoder.
    ///
    /// - Parameter userInfo: Values for `Encoder.userInfo`.
    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.userInfo = userInfo
    }

    /// The stored tree of `value`.
    ///
    /// - Throws: ``StorageError/Code/encodingFailed`` with the ``StorageError/codingPath`` of the
    ///   failure: `nil` inside an array or at the top level, or an error of the value's
    ///   `encode(to:)`; ``StorageError/Code/nestingTooDeep`` for containers nested more than 63
    ///   deep, which settings files could not read back.
    /// - Complexity: O(n) in the number of nodes encoded.
    public func encode<T: Encodable>(_ value: T) throws -> StoredValue {
        let encoder = StoredValueEncoding(keys: [], userInfo: userInfo)
        do {
            guard let stored = try encoder.encodeCurrent(value).resolve(depth: 0) else {
                throw StorageError(
                    .encodingFailed, expectedType: typeName(T.self), message: "nil has no stored form of its own")
            }
            return stored
        } catch {
            throw StorageError.encoding(error, type: T.self)
        }
    }
}

/// What one coding level produced: a finished value, `nil`, or a container still being filled.
enum EncodedSlot {
    case value(StoredValue)
    case null
    case object(EncodedObject)
    case array(EncodedArray)
    /// A `superEncoder`, which may be filled after its parent: read when the tree is resolved.
    case encoder(StoredValueEncoding)

    /// The finished tree (`nil` for `nil`), `depth` containers down. Throws `encodingFailed` for
    /// `nil` in an array; `nestingTooDeep` beyond ``StoredValueEncoder/maximumDepth``, also for
    /// containers a custom `encode(to:)` nests by hand.
    func resolve(depth: Int) throws -> StoredValue? {
        switch self {
        case .object, .array:
            if depth >= StoredValueEncoder.maximumDepth { throw StorageError.tooDeep }
        default:
            break
        }
        switch self {
        case .value(let value):
            return value
        case .null:
            return nil
        case .object(let object):
            var result: [String: StoredValue] = [:]
            result.reserveCapacity(object.items.count)
            // In the order encoded: a key encoded again replaces its value, and `nil` removes it.
            for (position, (key, slot)) in object.items.enumerated() {
                do {
                    result[key] = try StorageError.prefixingCodingPath(key) { try slot.resolve(depth: depth + 1) }
                } catch  where object.items[(position + 1)...].contains(where: { $0.key == key }) {
                    // Replaced by a later value: its failure does not count.
                }
            }
            return .dictionary(result)
        case .array(let array):
            var result: [StoredValue] = []
            result.reserveCapacity(array.items.count)
            for (index, slot) in array.items.enumerated() {
                result.append(
                    try StorageError.prefixingCodingPath(String(index)) {
                        guard let value = try slot.resolve(depth: depth + 1) else { throw StorageError.nilInArray }
                        return value
                    })
            }
            return .array(result)
        case .encoder(let encoder):
            return try (encoder.slot ?? .value(.dictionary([:]))).resolve(depth: depth)
        }
    }
}

/// A keyed container's dictionary, a reference so nested containers and `superEncoder` can fill it
/// later; entries kept in encoding order, made a dictionary once, when the tree is resolved.
final class EncodedObject {
    var items: [(key: String, slot: EncodedSlot)]

    init() {
        items = []
        // Room for a small structure's fields, so they are stored without growing the array.
        items.reserveCapacity(8)
    }
}

/// An array being filled by an unkeyed container.
final class EncodedArray {
    var items: [EncodedSlot] = []
}

extension StorageError {
    /// Containers nested deeper than ``StoredValueEncoder/maximumDepth``, or encoding that
    /// recurses deeper than ``StoredValueEncoding/maximumRecursion`` levels.
    static var tooDeep: StorageError {
        StorageError(.nestingTooDeep, message: "nesting deeper than \(StoredValueEncoder.maximumDepth) levels")
    }

    /// `nil` inside an array, which no stored tree can hold.
    static var nilInArray: StorageError {
        StorageError(.encodingFailed, message: "nil cannot be stored inside an array")
    }
}

/// The `Encoder` behind ``StoredValueEncoder``, one per top-level encode, nested container or
/// `superEncoder` (those may be filled out of order). Its own single-value container, it encodes
/// nested values by saving `slot` and pushing the key on `keys`, not with an encoder per value.
final class StoredValueEncoding: Encoder, SingleValueEncodingContainer {
    /// What the current level has encoded so far.
    var slot: EncodedSlot?
    var keys: [any CodingKey]
    let info: [CodingUserInfoKey: any Sendable]
    /// How many `encode(to:)` calls are running on this encoder: nested values, and values
    /// wrapped in single-value containers, which add no key.
    var recursion: Int

    /// The deepest `encode(to:)` recursion accepted: containers are bounded by `maximumDepth`; this
    /// bounds values wrapped in single-value containers, so none overflows the stack.
    static let maximumRecursion = 8 * StoredValueEncoder.maximumDepth

    init(keys: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable], recursion: Int = 0) {
        self.keys = keys
        self.info = userInfo
        self.recursion = recursion
    }

    var codingPath: [any CodingKey] { keys }
    var userInfo: [CodingUserInfoKey: Any] { info }

    func path(_ depth: Int) -> [any CodingKey] { Array(keys.prefix(depth)) }

    /// An encoder for a child value with its own path (nested containers, `superEncoder`).
    func child(depth: Int, key: any CodingKey) -> StoredValueEncoding {
        StoredValueEncoding(keys: path(depth) + [key], userInfo: info, recursion: recursion)
    }

    // MARK: - Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let object: EncodedObject
        if case .object(let existing)? = slot {
            object = existing
        } else {
            object = EncodedObject()
            slot = .object(object)
        }
        return KeyedEncodingContainer(StoredKeyedEncodingContainer(encoder: self, object: object, depth: keys.count))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let array: EncodedArray
        if case .array(let existing)? = slot {
            array = existing
        } else {
            array = EncodedArray()
            slot = .array(array)
        }
        return StoredUnkeyedEncodingContainer(encoder: self, array: array, depth: keys.count)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: - Encoding values

    /// Encodes `value` at the current level and returns what it produced.
    func encodeCurrent<T: Encodable>(_ value: T) throws -> EncodedSlot {
        if let special = try Self.special(value) { return .value(special) }
        guard recursion < Self.maximumRecursion else { throw Self.tooDeepError(keys) }
        let saved = slot
        slot = nil
        recursion += 1
        defer {
            slot = saved
            recursion -= 1
        }
        try value.encode(to: self)
        return slot ?? .value(.dictionary([:]))
    }

    /// Encodes `value`, under `key` of a container at `depth`, and returns what it produced.
    func encodeNested<T: Encodable, K: CodingKey>(_ value: T, depth: Int, key: K) throws -> EncodedSlot {
        if let special = try Self.special(value) { return .value(special) }
        keys.append(key)
        defer { keys.removeLast() }
        if keys.count >= StoredValueEncoder.maximumDepth { try Self.checkDepth(keys) }
        return try encodeCurrent(value)
    }

    /// The stored form of types whose form is their ``StoredValueConvertible`` one (and, for
    /// speed, of the common scalars); `nil` for other types.
    @inline(__always)
    static func special<T: Encodable>(_ value: T) throws -> StoredValue? {
        if T.self == String.self, let value = value as? String { return .string(value) }
        if T.self == Int.self, let value = value as? Int { return .int(Int64(value)) }
        if T.self == Double.self, let value = value as? Double { return .double(value) }
        if T.self == Bool.self, let value = value as? Bool { return .bool(value) }
        if T.self == Date.self, let value = value as? Date { return .date(value) }
        if T.self == Data.self, let value = value as? Data { return .data(value) }
        if T.self == URL.self, let value = value as? URL { return value.storedValue() }
        if T.self == UUID.self, let value = value as? UUID { return value.storedValue() }
        if T.self == Decimal.self, let value = value as? Decimal { return try value.storedValue() }
        return nil
    }

    static func checkDepth(_ keys: [any CodingKey]) throws {
        guard keys.count >= StoredValueEncoder.maximumDepth else { return }
        throw tooDeepError(keys)
    }

    /// The error for a value nested or recursing too deeply at `keys`.
    static func tooDeepError(_ keys: [any CodingKey]) -> EncodingError {
        let storageError = StorageError.tooDeep
        return EncodingError.invalidValue(
            0,
            EncodingError.Context(
                codingPath: keys, debugDescription: storageError.detail, underlyingError: storageError))
    }

    // MARK: - SingleValueEncodingContainer

    func encodeNil() throws { slot = .null }
    func encode(_ value: Bool) throws { slot = .value(.bool(value)) }
    func encode(_ value: String) throws { slot = .value(.string(value)) }
    func encode(_ value: Double) throws { slot = .value(.double(value)) }
    func encode(_ value: Float) throws { slot = .value(value.storedValue()) }
    func encode(_ value: Int) throws { slot = .value(value.storedValue()) }
    func encode(_ value: Int8) throws { slot = .value(value.storedValue()) }
    func encode(_ value: Int16) throws { slot = .value(value.storedValue()) }
    func encode(_ value: Int32) throws { slot = .value(value.storedValue()) }
    func encode(_ value: Int64) throws { slot = .value(value.storedValue()) }
    func encode(_ value: UInt) throws { slot = .value(value.storedValue()) }
    func encode(_ value: UInt8) throws { slot = .value(value.storedValue()) }
    func encode(_ value: UInt16) throws { slot = .value(value.storedValue()) }
    func encode(_ value: UInt32) throws { slot = .value(value.storedValue()) }
    func encode(_ value: UInt64) throws { slot = .value(value.storedValue()) }
    func encode<T: Encodable>(_ value: T) throws { slot = try encodeCurrent(value) }
}
