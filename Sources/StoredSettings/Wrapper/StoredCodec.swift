import Foundation

/// How a ``Stored`` wrapper turns its `Value` into a ``StoredValue`` and back.
///
/// An optional encodes `nil` as "remove the key". A class is refused (``refusal``): an edit
/// through its reference would never reach the store, so every conversion throws instead.
@usableFromInline
struct StoredCodec<Value: Sendable>: Sendable {
    @usableFromInline let decode: @Sendable (StoredValue) throws -> Value
    @usableFromInline let encode: @Sendable (Value) throws -> StoredValue?
    /// The Swift type named in error messages (the wrapped type for optionals).
    @usableFromInline let type: Any.Type
    /// Why `Value` cannot be a setting's type, when it cannot; boxed to keep the codec small.
    @usableFromInline let refusalBox: Boxed<StorageError>?
    /// Why `Value` cannot be a setting's type, when it cannot.
    @usableFromInline var refusal: StorageError? { refusalBox?.value }

    /// Creates a codec; called from inlinable code, so the closures are specialized.
    @usableFromInline
    init(
        decode: @escaping @Sendable (StoredValue) throws -> Value,
        encode: @escaping @Sendable (Value) throws -> StoredValue?, type: Any.Type,
        refusalBox: Boxed<StorageError>? = nil
    ) {
        self.decode = decode
        self.encode = encode
        self.type = type
        self.refusalBox = refusalBox
    }

    /// The name of ``type``, spelt only when a message needs it.
    var typeName: String { StoredSettings.typeName(type) }

    /// A codec for `type` that throws `refusal` from every decode and encode.
    @usableFromInline static func refusing(_ type: Any.Type, _ refusal: StorageError) -> StoredCodec {
        StoredCodec(
            decode: { _ in throw refusal }, encode: { _ in throw refusal }, type: type, refusalBox: Boxed(refusal))
    }

    /// The refusal for `type` when it is a class; `nil` for value types.
    @usableFromInline static func referenceTypeRefusal(_ type: Any.Type) -> StorageError? {
        guard type is AnyObject.Type else { return nil }
        let name = StoredSettings.typeName(type)
        return StorageError(
            .unsupportedType, expectedType: name,
            message:
                "\(name) is a class, and an edit made through its reference would never be saved; use a struct or an enum"
        )
    }

    /// A codec for a type with no stored form, refusing in its unavailable initializer's words.
    static func unsupported(_ type: Any.Type, advice: String) -> StoredCodec {
        let name = StoredSettings.typeName(type)
        let message = "\(name) is not a supported setting type; \(advice)"
        return .refusing(type, StorageError(.unsupportedType, expectedType: name, message: message))
    }
}

extension StoredCodec where Value: StoredValueConvertible {
    @inlinable static var convertible: StoredCodec {
        if let refusal = referenceTypeRefusal(Value.self) { return .refusing(Value.self, refusal) }
        return StoredCodec(decode: { try Value(storedValue: $0) }, encode: { try $0.storedValue() }, type: Value.self)
    }
}

extension StoredCodec {
    @inlinable static func optional<Wrapped: StoredValueConvertible>(_: Wrapped.Type) -> StoredCodec
    where Value == Wrapped? {
        if let refusal = referenceTypeRefusal(Wrapped.self) { return .refusing(Wrapped.self, refusal) }
        return StoredCodec(
            decode: { try Wrapped(storedValue: $0) }, encode: { try $0?.storedValue() }, type: Wrapped.self)
    }
}

/// What ``DecodedCache/lookup(revision:into:)`` found.
enum DecodedCacheLookup {
    /// Nothing decoded at that revision.
    case miss
    /// The decoded value was copied out.
    case hit
    /// Decoding at that revision failed (the failure was reported when it was cached).
    case failed(StorageError)
}

/// One wrapper's last decoded value, valid while the store's revision is unchanged, and the
/// last failure reported, so a broken value is reported once. Values are copied out through
/// `inout`, never as `Optional<Value>`, whose metadata unspecialized code would look up.
@usableFromInline
class DecodedCache<Value: Sendable>: @unchecked Sendable {
    // Safe: every `var` is private and used only inside `lock.withLock`; the one subclass,
    // ``StoredSetting``, adds only `let`s.
    /// The store revision the fields below belong to.
    private var revision: UInt64 = 0
    private var holdsValue = false
    /// The decoded value at `revision` when `holdsValue`; otherwise a placeholder.
    private var value: Value
    /// The failure at `revision`, and the last one reported with its value; boxed, as rare.
    private var failure: Boxed<StorageError>?
    private var reported: Boxed<(StoredValue, StorageError)>?
    /// The value an in-place mutation last started from or wrote, with its stored array.
    private var lastMutated: MutationStart<Value>?

    /// The size of the fields above, laid out as a tuple in the same order (keep in step).
    static var cacheFieldsSize: Int {
        MemoryLayout<(UInt64, Bool, Value, Boxed<StorageError>?, Boxed<StorageError>?)>.size
            + MemoryLayout<MutationStart<Value>?>.size
    }

    /// Creates an empty cache; `placeholder` fills the value slot until a value is decoded.
    init(placeholder: Value) {
        value = placeholder
    }

    /// The lock guarding this cache: one of a fixed pool, picked by address, so a wrapper
    /// allocates no lock.
    private var lock: Lock<Int> {
        let address = UInt64(UInt(bitPattern: ObjectIdentifier(self)))
        return cacheLocks[Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> 58)]
    }

    /// Copies the value decoded at `revision` into `result`, if there is one.
    ///
    /// What `result` held is released inside the lock, so it must not be the last reference
    /// to anything whose `deinit` may read a setting: callers pass a copy of the default.
    func lookup(revision wanted: UInt64, into result: inout Value) -> DecodedCacheLookup {
        lock.withLock { _ -> DecodedCacheLookup in
            guard revision == wanted else { return .miss }
            if holdsValue {
                result = value
                return .hit
            }
            if let failure { return .failed(failure.value) }
            return .miss
        }
    }

    /// Keeps `value`, decoded at `revision`.
    func store(_ value: Value, revision decodedAt: UInt64) {
        // The replaced value is released after the lock: its `deinit` may read settings whose
        // caches share this lock.
        var released = value
        lock.withLock { _ in
            revision = decodedAt
            swap(&self.value, &released)
            holdsValue = true
            failure = nil
        }
    }

    /// Keeps the decoding failure at `revision`.
    func store(failure: StorageError, revision failedAt: UInt64) {
        lock.withLock { _ in
            revision = failedAt
            holdsValue = false
            self.failure = Boxed(failure)
        }
    }

    /// Copies the value last kept for the very array `stored` (the same buffer, not an equal
    /// one: another writer's array may spell its strings otherwise) into `result`; `false`
    /// when there is none.
    func lookup(mutationStart stored: StoredValue, into result: inout Value) -> Bool {
        let start = lock.withLock { _ -> MutationStart<Value>? in
            guard let lastMutated, case .array(let kept) = lastMutated.stored, case .array(let found) = stored,
                kept.count == found.count,
                kept.withUnsafeBufferPointer({ a in found.withUnsafeBufferPointer { a.baseAddress == $0.baseAddress } })
            else { return nil }
            return lastMutated
        }
        guard let start else { return false }
        result = start.value
        return true
    }

    /// Keeps `value` as the decoded form of the array `stored`, for the next mutation.
    func store(mutated value: Value, storedAs stored: StoredValue) {
        var released: MutationStart<Value>? = MutationStart(stored: stored, value: value)
        lock.withLock { _ in swap(&lastMutated, &released) }
    }

    /// Whether `error` for `value` has not been reported yet; records it as reported.
    func shouldReport(_ error: StorageError, for value: StoredValue) -> Bool {
        lock.withLock { _ in
            if let (lastValue, lastError) = reported?.value, lastError == error, lastValue.isIdentical(to: value) {
                return false
            }
            reported = Boxed((value, error))
            return true
        }
    }
}

/// The locks of every ``DecodedCache``; each is held only for a few field copies, never across
/// a call out.
private let cacheLocks = (0..<64).map { _ in Lock(0) }

/// The value an in-place mutation last started from or wrote, with its stored array.
final class MutationStart<Value: Sendable>: Sendable {
    let stored: StoredValue
    let value: Value

    init(stored: StoredValue, value: Value) {
        self.stored = stored
        self.value = value
    }
}

/// A value kept behind a reference: one word where the value is large and rarely present.
@usableFromInline
final class Boxed<Value: Sendable>: Sendable {
    let value: Value

    @usableFromInline
    init(_ value: Value) {
        self.value = value
    }
}
