import Foundation

// MARK: - Keyed

/// Fills a `dictionary` for ``StoredValueEncoder``. `nil` removes the key: stored trees keep
/// no `nil`s.
struct StoredKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: StoredValueEncoding
    let object: EncodedObject
    let depth: Int

    var codingPath: [any CodingKey] { encoder.path(depth) }

    @inline(__always)
    private func put(_ value: StoredValue, _ key: Key) {
        object.items.append((key.stringValue, .value(value)))
    }

    mutating func encodeNil(forKey key: Key) throws { object.items.append((key.stringValue, .null)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(value.storedValue(), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(value.storedValue(), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(value.storedValue(), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(value.storedValue(), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(value.storedValue(), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(value.storedValue(), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(value.storedValue(), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(value.storedValue(), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(value.storedValue(), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(value.storedValue(), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(value.storedValue(), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        object.items.append((key.stringValue, try encoder.encodeNested(value, depth: depth, key: key)))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let nested = EncodedObject()
        object.items.append((key.stringValue, .object(nested)))
        let child = encoder.child(depth: depth, key: key)
        return KeyedEncodingContainer(
            StoredKeyedEncodingContainer<NestedKey>(encoder: child, object: nested, depth: child.keys.count))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = EncodedArray()
        object.items.append((key.stringValue, .array(nested)))
        let child = encoder.child(depth: depth, key: key)
        return StoredUnkeyedEncodingContainer(encoder: child, array: nested, depth: child.keys.count)
    }

    mutating func superEncoder() -> any Encoder {
        let child = StoredValueEncoding(
            keys: encoder.path(depth) + [SuperCodingKey()], userInfo: encoder.info, recursion: encoder.recursion)
        object.items.append(("super", .encoder(child)))
        return child
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let child = StoredValueEncoding(
            keys: encoder.path(depth) + [key], userInfo: encoder.info, recursion: encoder.recursion)
        object.items.append((key.stringValue, .encoder(child)))
        return child
    }
}

// MARK: - Unkeyed

/// Fills an `array` for ``StoredValueEncoder``. `nil` has no place in an array: it throws
/// ``StorageError/Code/encodingFailed`` naming the index.
struct StoredUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let encoder: StoredValueEncoding
    let array: EncodedArray
    let depth: Int

    var codingPath: [any CodingKey] { encoder.path(depth) }
    var count: Int { array.items.count }

    @inline(__always)
    private func append(_ value: StoredValue) {
        array.items.append(.value(value))
    }

    private func nilError() -> EncodingError {
        let storageError = StorageError.nilInArray
        return EncodingError.invalidValue(
            Optional<Int>.none as Any,
            EncodingError.Context(
                codingPath: encoder.path(depth) + [IndexCodingKey(index: count)],
                debugDescription: storageError.detail, underlyingError: storageError
            ))
    }

    mutating func encodeNil() throws { throw nilError() }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(.double(value)) }
    mutating func encode(_ value: Float) throws { append(value.storedValue()) }
    mutating func encode(_ value: Int) throws { append(value.storedValue()) }
    mutating func encode(_ value: Int8) throws { append(value.storedValue()) }
    mutating func encode(_ value: Int16) throws { append(value.storedValue()) }
    mutating func encode(_ value: Int32) throws { append(value.storedValue()) }
    mutating func encode(_ value: Int64) throws { append(value.storedValue()) }
    mutating func encode(_ value: UInt) throws { append(value.storedValue()) }
    mutating func encode(_ value: UInt8) throws { append(value.storedValue()) }
    mutating func encode(_ value: UInt16) throws { append(value.storedValue()) }
    mutating func encode(_ value: UInt32) throws { append(value.storedValue()) }
    mutating func encode(_ value: UInt64) throws { append(value.storedValue()) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let slot = try encoder.encodeNested(value, depth: depth, key: IndexCodingKey(index: count))
        if case .null = slot { throw nilError() }
        array.items.append(slot)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        let child = encoder.child(depth: depth, key: IndexCodingKey(index: count))
        let nested = EncodedObject()
        array.items.append(.object(nested))
        return KeyedEncodingContainer(
            StoredKeyedEncodingContainer<NestedKey>(encoder: child, object: nested, depth: child.keys.count))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = encoder.child(depth: depth, key: IndexCodingKey(index: count))
        let nested = EncodedArray()
        array.items.append(.array(nested))
        return StoredUnkeyedEncodingContainer(encoder: child, array: nested, depth: child.keys.count)
    }

    mutating func superEncoder() -> any Encoder {
        let child = StoredValueEncoding(
            keys: encoder.path(depth) + [IndexCodingKey(index: count)], userInfo: encoder.info,
            recursion: encoder.recursion)
        array.items.append(.encoder(child))
        return child
    }
}
