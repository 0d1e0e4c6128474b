/// How a ``Stored`` wrapper turns its `Value` into a ``StoredValue`` and back.
///
/// Non-optional values encode to a stored value; optional values encode `nil` as "remove the
/// key". Built once per wrapper from the `Value`'s ``StoredValueConvertible`` conformance.
struct StoredCodec<Value: Sendable>: Sendable {
    let decode: @Sendable (StoredValue) throws -> Value
    let encode: @Sendable (Value) throws -> StoredValue?
    /// The Swift type named in error messages (the wrapped type for optionals).
    let typeName: String
}

extension StoredCodec where Value: StoredValueConvertible {
    static var convertible: StoredCodec {
        StoredCodec(
            decode: { try Value(storedValue: $0) },
            encode: { try $0.storedValue() },
            typeName: StoredSettings.typeName(Value.self)
        )
    }
}

extension StoredCodec {
    static func optional<Wrapped: StoredValueConvertible>(_: Wrapped.Type) -> StoredCodec
    where Value == Wrapped? {
        StoredCodec(
            decode: { try Wrapped(storedValue: $0) },
            encode: { try $0?.storedValue() },
            typeName: StoredSettings.typeName(Wrapped.self)
        )
    }
}

/// The last decoded value of one wrapper, valid while the store's revision is unchanged, and
/// the last decoding failure reported, so a broken value is reported once, not on every read.
final class DecodedCache<Value: Sendable>: Sendable {
    private struct State {
        var revision: UInt64?
        var result: Result<Value, StorageError>?
        var reported: (StoredValue, StorageError)?
    }

    private let state = Lock(State())

    /// The cached result when it was decoded at `revision`.
    func lookup(revision: UInt64) -> Result<Value, StorageError>? {
        state.withLock { state in
            state.revision == revision ? state.result : nil
        }
    }

    /// Keeps `result` for `revision`.
    func store(_ result: Result<Value, StorageError>, revision: UInt64) {
        state.withLock { state in
            state.revision = revision
            state.result = result
        }
    }

    /// Whether `error` for `value` has not been reported yet; records it as reported.
    func shouldReport(_ error: StorageError, for value: StoredValue) -> Bool {
        state.withLock { state in
            if let (lastValue, lastError) = state.reported, lastError == error, lastValue.isIdentical(to: value) {
                return false
            }
            state.reported = (value, error)
            return true
        }
    }
}
