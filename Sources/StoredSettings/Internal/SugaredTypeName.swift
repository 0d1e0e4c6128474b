import Foundation

/// A type name as Swift code spells it: `[String]` for `Array<String>`, `[String: Int]` for
/// `Dictionary<String, Int>`, `Int?` for `Optional<Int>`; the one spelling of types in messages.
package func sugaredTypeName(_ name: String) -> String {
    var result = name
    for (prefix, open, close) in [("Array<", "[", "]"), ("Dictionary<", "[", "]"), ("Optional<", "", "?")] {
        while let range = result.range(of: prefix) {
            // Find the matching `>`.
            var depth = 1
            var index = range.upperBound
            while index < result.endIndex, depth > 0 {
                if result[index] == "<" { depth += 1 }
                if result[index] == ">" { depth -= 1 }
                if depth > 0 { index = result.index(after: index) }
            }
            guard index < result.endIndex else { return name }
            var inner = String(result[range.upperBound..<index])
            if prefix == "Dictionary<", let comma = inner.firstIndex(of: ",") {
                inner = inner[..<comma] + ":" + inner[inner.index(after: comma)...]
            }
            result.replaceSubrange(range.lowerBound...index, with: open + inner + close)
        }
    }
    return result
}
