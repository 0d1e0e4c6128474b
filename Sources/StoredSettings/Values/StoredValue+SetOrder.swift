import Foundation

extension StoredValue {
    /// Whether `self` comes before `other` in the order a `Set` is stored in: a strict total
    /// order, compared without building text. Kinds in a fixed order (`kindRank`); within a
    /// kind `String` order, numeric order (doubles and dates by IEEE 754 total order), or element
    /// by element with a prefix first (data, arrays, dictionaries by sorted key, then value).
    package func precedesInSetOrder(_ other: StoredValue) -> Bool {
        switch (self, other) {
        case (.string(let a), .string(let b)): a < b
        case (.bool(let a), .bool(let b)): !a && b
        case (.int(let a), .int(let b)): a < b
        case (.double(let a), .double(let b)): Self.doublePrecedes(a, b)
        case (.date(let a), .date(let b)):
            Self.doublePrecedes(a.timeIntervalSinceReferenceDate, b.timeIntervalSinceReferenceDate)
        case (.data(let a), .data(let b)): a.lexicographicallyPrecedes(b)
        case (.array(let a), .array(let b)): a.lexicographicallyPrecedes(b) { $0.precedesInSetOrder($1) }
        case (.dictionary(let a), .dictionary(let b)):
            a.sorted { $0.key < $1.key }.lexicographicallyPrecedes(b.sorted { $0.key < $1.key }) { left, right in
                left.key != right.key ? left.key < right.key : left.value.precedesInSetOrder(right.value)
            }
        default: kindRank < other.kindRank
        }
    }

    /// `a` before `b` in IEEE 754 total order, and never a value before itself.
    private static func doublePrecedes(_ a: Double, _ b: Double) -> Bool {
        a.bitPattern != b.bitPattern && a.isTotallyOrdered(belowOrEqualTo: b)
    }

    /// The place of the kind in the set order.
    private var kindRank: Int {
        switch self {
        case .bool: 0
        case .double: 1
        case .int: 2
        case .string: 3
        case .date: 4
        case .data: 5
        case .array: 6
        case .dictionary: 7
        }
    }
}
