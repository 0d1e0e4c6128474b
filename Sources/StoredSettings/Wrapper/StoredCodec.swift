import Foundation

/// How a ``Stored`` wrapper turns its `Value` into a ``StoredValue`` and back.
///
/// Non-optional values encode to a stored value; optional values encode `nil` as "remove the
/// key". Built once per wrapper from the `Value`'s ``StoredValueConvertible`` conformance.
///
/// A class is refused (``refusal``): an edit made through its reference
/// (`settings.box.name = "x"`) changes the object and never reaches the store, so it would be
/// lost silently. Such a codec decodes and encodes nothing; it throws the refusal instead.
@usableFromInline
struct StoredCodec<Value: Sendable>: Sendable {
    @usableFromInline let decode: @Sendable (StoredValue) throws -> Value
    @usableFromInline let encode: @Sendable (Value) throws -> StoredValue?
    /// The Swift type named in error messages (the wrapped type for optionals).
    @usableFromInline let type: Any.Type
    /// Why `Value` cannot be a setting's type, when it cannot; boxed, as ``DecodedCache``'s
    /// failures are.
    @usableFromInline let refusalBox: Boxed<StorageError>?
    /// Why `Value` cannot be a setting's type, when it cannot.
    @usableFromInline var refusal: StorageError? { refusalBox?.value }

    /// Creates a codec; inlinable code builds it, so the conversions are closures of code
    /// specialized for `Value`, with no context to allocate.
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

    /// The name of ``type``, spelt only when a message needs it (spelling it costs more than
    /// creating a wrapper).
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

    /// A codec for a type that has no stored form, refusing with "`type` is not a supported
    /// setting type; `advice`" (the words of its unavailable initializer's compile-time message).
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

/// The last decoded value of one wrapper, valid while the store's revision is unchanged, and
/// the last decoding failure reported, so a broken value is reported once, not on every read.
///
/// Built for the read path of unspecialized generic code: no member returns or stores a
/// generic wrapper type (`Optional<Value>`, `Result<Value, _>`), whose metadata the runtime
/// would look up on every read; the value is copied out through an `inout` parameter.
@usableFromInline
class DecodedCache<Value: Sendable>: @unchecked Sendable {
    // Safe because every stored `var` is private, read and written only inside
    // `lock.withLock`; the one subclass, ``StoredSetting``, adds only `let`s.
    /// The store revision the fields below belong to.
    private var revision: UInt64 = 0
    private var holdsValue = false
    /// The decoded value at `revision` when `holdsValue`; otherwise a placeholder.
    private var value: Value
    /// The decoding failure at `revision`, when decoding failed, and the last one reported
    /// with its value; boxed, so a cache that never fails holds two words, not two errors.
    private var failure: Boxed<StorageError>?
    private var reported: Boxed<(StoredValue, StorageError)>?
    /// The last value an in-place mutation started from or wrote, with its stored array: the
    /// next mutation that finds that very array (the same buffer, an O(1) check) starts from it
    /// instead of decoding again. Boxed: a generic tuple here would make every cache's release
    /// look up the tuple's type.
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

    /// The lock guarding this cache: one of a fixed pool, picked by the object's address, so
    /// that creating a wrapper allocates no lock of its own (allocating and freeing one, with
    /// its system mutex, was a third of creating a wrapper and reading it once).
    private var lock: Lock<Int> {
        let address = UInt64(UInt(bitPattern: ObjectIdentifier(self)))
        return cacheLocks[Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> 58)]
    }

    /// Copies the value decoded at `revision` into `result`, if there is one.
    ///
    /// What `result` held is released inside the lock, so it must not be the last reference
    /// to anything whose `deinit` may read a setting: the callers pass a copy of the setting's
    /// default, which the setting keeps. (Assigning after the lock costs a cached read one more
    /// copy of the value, which a structure of many fields feels.)
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
        // The value replaced leaves the lock in `released`, and is released after it: its
        // `deinit` may read settings, whose caches may share this lock.
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

/// The locks of every ``DecodedCache``: 64, so that caches of settings read on different
/// threads rarely share one. Each is held only for a few field copies, never across a call out
/// (a replaced value, whose `deinit` may read settings, is released after the lock).
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
