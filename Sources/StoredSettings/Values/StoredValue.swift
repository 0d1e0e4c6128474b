public import Foundation

/// A stored value: the property-list-shaped tree every backend keeps.
///
/// The exchange format between the value layer (``StoredValueConvertible``) and the backends,
/// which keep `StoredValue`s under string keys and know nothing of Swift types. The cases mirror
/// property lists, so every tree can be written to a property list, `UserDefaults` and (with
/// dates and data as text) JSON. <doc:SupportedTypes> shows the tree of each type.
///
/// ```swift
/// let profile: StoredValue = .dictionary(["name": .string("Ada"), "age": .int(36)])
/// ```
///
/// `==` compares `double`s as `Double`s (`.double(.nan) != .double(.nan)`); ``isIdentical(to:)``
/// compares bit patterns.
public enum StoredValue: Sendable, Hashable {
    /// A Boolean.
    case bool(Bool)
    /// A signed 64-bit integer; a `UInt64` above `Int64.max` is stored as its decimal `string`.
    case int(Int64)
    /// A 64-bit floating-point number.
    case double(Double)
    /// A string; any Unicode, including NUL.
    case string(String)
    /// Raw bytes.
    case data(Data)
    /// A point in time, to the bit.
    case date(Date)
    /// An ordered list of values.
    case array([StoredValue])
    /// Values under string keys.
    case dictionary([String: StoredValue])
}

extension StoredValue {
    /// The kind of value, as a word for error messages: `bool`, `int`, `double`, `string`,
    /// `data`, `date`, `array` or `dictionary`.
    public var kind: String {
        switch self {
        case .bool: "bool"
        case .int: "int"
        case .double: "double"
        case .string: "string"
        case .data: "data"
        case .date: "date"
        case .array: "array"
        case .dictionary: "dictionary"
        }
    }

    /// Whether two values are the same to the bit: like `==`, but `double` and `date` payloads
    /// compare by bit pattern, so NaN equals NaN and `-0.0` differs from `0.0`.
    ///
    /// - Complexity: O(n) in the number of nodes of the smaller tree.
    public func isIdentical(to other: StoredValue) -> Bool {
        // One switch on `self`, then a pattern on `other`: no tuple of the two is built.
        switch self {
        case .bool(let a): if case .bool(let b) = other { a == b } else { false }
        case .int(let a): if case .int(let b) = other { a == b } else { false }
        case .double(let a): if case .double(let b) = other { a.bitPattern == b.bitPattern } else { false }
        case .string(let a): if case .string(let b) = other { a == b } else { false }
        case .data(let a): if case .data(let b) = other { a == b } else { false }
        case .date(let a):
            if case .date(let b) = other {
                a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
            } else {
                false
            }
        case .array(let a):
            if case .array(let b) = other {
                // Two copies of one array share their buffer: identical without a walk.
                a.count == b.count
                    && (a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { x.baseAddress == $0.baseAddress } }
                        || zip(a, b).allSatisfy { $0.isIdentical(to: $1) })
            } else {
                false
            }
        case .dictionary(let a):
            if case .dictionary(let b) = other {
                a.count == b.count && a.allSatisfy { key, value in b[key].map { value.isIdentical(to: $0) } ?? false }
            } else {
                false
            }
        }
    }

    /// How many containers deep the tree nests: 0 for a scalar, 1 for an array or dictionary of
    /// scalars (or of nothing), one more than its deepest child for any other container. This
    /// is what ``StoredValueJSON/maximumDepth`` limits in every format, read or written.
    ///
    /// - Complexity: O(n) in the number of nodes.
    package var depth: Int {
        switch self {
        case .array(let items): 1 + (items.lazy.map(\.depth).max() ?? 0)
        case .dictionary(let items): 1 + (items.values.lazy.map(\.depth).max() ?? 0)
        default: 0
        }
    }
}

extension StoredValue: CustomStringConvertible {
    /// A short description: the kind, and for scalars the value, for debugging.
    public var description: String {
        switch self {
        case .bool(let value): "bool(\(value))"
        case .int(let value): "int(\(value))"
        case .double(let value): "double(\(value))"
        case .string(let value): "string(\(value.debugDescription))"
        case .data(let value): "data(\(value.count) bytes)"
        case .date(let value): "date(\(value.timeIntervalSinceReferenceDate))"
        case .array(let items): "array(\(items.count) items)"
        case .dictionary(let items): "dictionary(\(items.count) entries)"
        }
    }
}

extension Optional where Wrapped == StoredValue {
    /// Whether two possibly absent values are the same: both absent, or both present and
    /// identical to the bit (``StoredValue/isIdentical(to:)``). A backend uses it to keep the
    /// ``Storable`` rule that writing the stored value again publishes no change.
    ///
    /// - Complexity: O(n) in the number of nodes of the smaller tree.
    public func isIdentical(to other: StoredValue?) -> Bool {
        switch (self, other) {
        case (nil, nil): true
        case (let value?, let other?): value.isIdentical(to: other)
        default: false
        }
    }
}
