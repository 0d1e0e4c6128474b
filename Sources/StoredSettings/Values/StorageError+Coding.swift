/// Conversions from Swift's `DecodingError`/`EncodingError` to ``StorageError``. Containers
/// throw the standard errors (a hand-written `init(from:)` may catch them) with a `StorageError`
/// as `underlyingError`; other code's errors keep only kind and path, as their text may quote a
/// stored value.
extension StorageError {
    /// `error`, a `DecodingError` or any error thrown while decoding `type`, as a
    /// ``StorageError``.
    static func decoding(_ error: any Error, type: Any.Type) -> StorageError {
        switch error {
        case let error as StorageError:
            return error
        case let error as DecodingError:
            switch error {
            case .typeMismatch(let expected, let context):
                return from(context, fallback: StorageError(.typeMismatch, expectedType: typeName(expected)))
            case .valueNotFound(let expected, let context):
                return from(
                    context,
                    fallback: StorageError(.typeMismatch, expectedType: typeName(expected), foundKind: "nothing"))
            case .keyNotFound(let key, let context):
                var result = from(
                    context,
                    fallback: StorageError(.typeMismatch, foundKind: "nothing", message: "the field is missing"))
                if result.codingPath.last != key.pathComponent { result.codingPath.append(key.pathComponent) }
                return result
            case .dataCorrupted(let context):
                return from(
                    context, fallback: StorageError(.dataCorrupted, message: "the value is not valid for its type"))
            @unknown default:
                return StorageError(.dataCorrupted, expectedType: typeName(type))
            }
        default:
            return StorageError(
                .dataCorrupted, expectedType: typeName(type),
                message: "decoding threw \(typeName(Swift.type(of: error)))"
            )
        }
    }

    /// `error`, an `EncodingError` or any error thrown while encoding, as a ``StorageError``
    /// with code ``Code/encodingFailed``.
    static func encoding(_ error: any Error, type: Any.Type) -> StorageError {
        switch error {
        case let error as StorageError:
            return error
        case EncodingError.invalidValue(_, let context):
            return from(
                context,
                fallback: StorageError(
                    .encodingFailed, expectedType: typeName(type), message: "the value was refused by its encode(to:)"))
        default:
            return StorageError(
                .encodingFailed, expectedType: typeName(type),
                message: "encoding threw \(typeName(Swift.type(of: error)))"
            )
        }
    }

    private static func from(_ context: DecodingError.Context, fallback: StorageError) -> StorageError {
        var result = context.underlyingError as? StorageError ?? fallback
        result.codingPath = context.codingPath.map(\.pathComponent)
        return result
    }

    private static func from(_ context: EncodingError.Context, fallback: StorageError) -> StorageError {
        var result = context.underlyingError as? StorageError ?? fallback
        result.codingPath = context.codingPath.map(\.pathComponent)
        return result
    }
}

extension CodingKey {
    /// The key as one component of ``StorageError/codingPath``: the index for array positions,
    /// else the key's string.
    fileprivate var pathComponent: String {
        if self is IndexCodingKey, let intValue { return String(intValue) }
        return stringValue
    }
}

/// The coding key of an array position. It keeps only the index; its string is made when
/// asked for (on error paths), so decoding an array builds no strings.
struct IndexCodingKey: CodingKey, Sendable {
    let index: Int

    init(index: Int) { self.index = index }

    var stringValue: String { String(index) }
    var intValue: Int? { index }

    init?(stringValue: String) {
        guard let index = Int(stringValue) else { return nil }
        self.index = index
    }

    init?(intValue: Int) { self.index = intValue }
}

/// The key `super`, under which `superEncoder()` and `superDecoder()` keep a superclass's values.
struct SuperCodingKey: CodingKey, Sendable {
    var stringValue: String { "super" }
    var intValue: Int? { nil }
    init() {}
    init?(stringValue: String) { guard stringValue == "super" else { return nil } }
    init?(intValue: Int) { nil }
}
