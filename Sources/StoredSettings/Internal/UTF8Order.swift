#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Whether `a` sorts before `b` by their UTF-8 bytes (which is Unicode scalar order): the key
/// order of written files.
///
/// Compares the strings' contiguous UTF-8 storage with `memcmp` when they have one, else their
/// `utf8` views element by element; both give the same order.
package func utf8Precedes(_ a: String, _ b: String) -> Bool {
    let fast = a.utf8.withContiguousStorageIfAvailable { left in
        b.utf8.withContiguousStorageIfAvailable { right -> Bool in
            let common = min(left.count, right.count)
            if common > 0, let l = left.baseAddress, let r = right.baseAddress {
                let order = memcmp(l, r, common)
                if order != 0 { return order < 0 }
            }
            return left.count < right.count
        }
    }
    if let result = fast ?? nil { return result }
    return a.utf8.lexicographicallyPrecedes(b.utf8)
}

/// `keys` sorted by their UTF-8 bytes.
///
/// All-ASCII keys (the usual case) are sorted with `String`'s own `<`, which for ASCII is the
/// same order and runs without the per-comparison overhead of a custom closure; others with
/// ``utf8Precedes(_:_:)``.
package func sortedByUTF8<Keys: Sequence<String>>(_ keys: Keys) -> [String] {
    var sorted = Array(keys)
    if sorted.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) {
        sorted.sort()
    } else {
        sorted.sort(by: utf8Precedes)
    }
    return sorted
}
