import Foundation

/// A name under which a setting is stored.
///
/// Declare your keys as a `String`-backed enum with an empty conformance; the case's raw value
/// is the stored name. A plain `String` is a key too.
///
/// ```swift
/// enum Key: String, StorageKey { case autoReload, theme }
/// ```
///
/// Every name but the empty one and names with control characters is valid (stores throw
/// ``StorageError/Code/invalidKey``). Names compare by canonical equivalence, as Swift strings
/// do (`café` in NFC and NFD name one setting): writing one spelling while a store holds the
/// other throws ``StorageError/Code/invalidKey`` naming both.
///
/// - Note: Conforming types must be `Sendable`; `name` must return the same string every time.
public protocol StorageKey: Sendable {
    /// The string the setting is stored under.
    var name: String { get }
}

extension StorageKey where Self: RawRepresentable, RawValue == String {
    /// The raw value of the enum case.
    public var name: String { rawValue }
}

extension String: StorageKey {
    /// The string itself.
    public var name: String { self }
}

extension StorageError {
    /// Checks that `key` can be stored, as every backend must before writing: not empty, and
    /// free of control characters (U+0000–U+001F, U+007F–U+009F).
    ///
    /// ```swift
    /// try StorageError.validate(key: "editor.fontSize")   // passes
    /// ```
    ///
    /// - Parameters:
    ///   - key: The key name.
    ///   - location: The store's location, named in the error.
    /// - Throws: ``StorageError`` with code ``Code/invalidKey`` naming the key and, for a
    ///   control character, its code point.
    public static func validate(key: String, location: String? = nil) throws {
        if key.isEmpty {
            throw StorageError(.invalidKey, key: key, location: location, message: "the key is empty")
        }
        // Nearly every key has no byte that may start a control character: no decoding.
        guard key.utf8.mayHoldControlCharacters else { return }
        for scalar in key.unicodeScalars where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
            let codePoint = String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
            throw StorageError(
                .invalidKey, key: key, location: location,
                message: "the key contains the control character U+\(codePoint)"
            )
        }
    }
}

extension String.UTF8View {
    /// Whether a byte may belong to a control character: one below 0x20, 0x7F, or 0xC2 (the
    /// lead byte of U+0080...U+009F).
    fileprivate var mayHoldControlCharacters: Bool {
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x20 || byte == 0x7F || byte == 0xC2 { return true }
                index += 1
            }
            return false
        }
        return withContiguousStorageIfAvailable(scan) ?? Array(self).withUnsafeBufferPointer(scan)
    }
}

extension String {
    package func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}

// MARK: - Canonically equivalent keys

/// The key of `dictionary` that `String ==` matches to `key` although its Unicode scalars differ
/// (`café` in NFC and NFD); `nil` when there is none. Parsers and stores' writes ask this first,
/// so no two keys are merged silently.
func canonicallyEquivalentKey<Value>(to key: String, in dictionary: [String: Value]) -> String? {
    guard let index = dictionary.index(forKey: key) else { return nil }
    let existing = dictionary.keys[index]
    return existing.hasSameScalars(as: key) ? nil : existing
}

extension String {
    /// Whether the two strings have the same Unicode scalars (the same UTF-8 bytes), not only
    /// canonically equivalent ones; inline, so the same string again is told by its representation.
    @inline(__always)
    package func hasSameScalars(as other: String) -> Bool {
        hasSameRepresentation(as: other) || utf8.elementsEqual(other.utf8)
    }

    /// Whether the two values are bit for bit the same `String`: the same inline bytes of a
    /// small string, or the same storage object with the same count. Then they hold the same
    /// scalars; when not, they may still (two buffers with the same bytes), so `false` decides
    /// nothing.
    @inline(__always)
    package func hasSameRepresentation(as other: String) -> Bool {
        withUnsafeBytes(of: self) { bytes in
            withUnsafeBytes(of: other) { otherBytes in
                // Two words on 64-bit platforms; another layout takes `memcmp`, whose padding
                // bytes can only make two equal strings differ.
                guard bytes.count == 16 else {
                    return memcmp(bytes.baseAddress!, otherBytes.baseAddress!, bytes.count) == 0
                }
                return bytes.loadUnaligned(as: UInt64.self) == otherBytes.loadUnaligned(as: UInt64.self)
                    && bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                        == otherBytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
            }
        }
    }
}

/// `'Å' (U+00C5) and 'Å' (U+212B) are canonically equivalent`: the words every refusal of
/// such a pair uses, with the code points that tell the two apart.
func canonicallyEquivalentKeysMessage(_ first: String, _ second: String) -> String {
    func spelled(_ key: String) -> String {
        let codePoints = key.unicodeScalars.map {
            "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4)
        }
        return "'\(key)' (\(codePoints.joined(separator: " ")))"
    }
    return
        "the keys \(spelled(first)) and \(spelled(second)) are canonically equivalent, which Swift strings treat as one key"
}

/// Throws ``StorageError/Code/invalidKey`` naming both keys when `dictionary` holds a key
/// canonically equivalent to `key` with different Unicode scalars
/// (``canonicallyEquivalentKey(to:in:)``): the check every store makes before writing `key`.
package func checkNoCanonicallyEquivalentKey<Value>(
    _ key: String, in dictionary: [String: Value], location: String? = nil
)
    throws
{
    guard let existing = canonicallyEquivalentKey(to: key, in: dictionary) else { return }
    throw canonicallyEquivalentKeyError(key, existing: existing, location: location)
}

/// The ``StorageError/Code/invalidKey`` refusal of writing `key` where the canonically
/// equivalent `existing` (other scalars) is stored.
func canonicallyEquivalentKeyError(_ key: String, existing: String, location: String? = nil) -> StorageError {
    StorageError(
        .invalidKey, key: key, location: location,
        message: canonicallyEquivalentKeysMessage(existing, key) + "; use the existing key's spelling")
}

extension StorageError {
    /// Throws unless a write of `key` may go into `dictionary`: the key is valid
    /// (``validate(key:location:)``), and `dictionary` holds no canonically equivalent key of
    /// other Unicode scalars. Every shipped store checks this before writing `key`.
    ///
    /// - Throws: ``Code/invalidKey`` naming `key` (and the stored key it collides with) and
    ///   `location`.
    public static func validate<Value>(key: String, writingInto dictionary: [String: Value], location: String?)
        throws
    {
        try validate(key: key, location: location)
        try checkNoCanonicallyEquivalentKey(key, in: dictionary, location: location)
    }
}
