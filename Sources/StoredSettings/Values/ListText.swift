import Foundation

/// Comma-separated list text, as the environment and the command line spell lists
/// (`APP_HOSTS=alpha, beta`), by the rules in <doc:SupportedTypes>: items trimmed, `\,` a comma
/// and `\\` a backslash (any other backslash kept), an empty item a type mismatch.
enum ListText {
    /// The items of `text`.
    ///
    /// - Parameter expectedType: The list's type name for the error (`Array<Int>`).
    /// - Throws: ``StorageError/Code/typeMismatch`` naming the position of the first empty item.
    static func items(of text: String, expectedType: String) throws -> [String] {
        var items: [String] = []
        var current = ""
        var escaped = false
        var pendingSpace = ""
        for character in text {
            if escaped {
                escaped = false
                if character == "," || character == "\\" {
                    current += pendingSpace
                    pendingSpace = ""
                    current.append(character)
                } else {
                    current += pendingSpace + "\\"
                    pendingSpace = ""
                    if character.isTrimmedInLists {
                        pendingSpace.append(character)
                    } else {
                        current.append(character)
                    }
                }
                continue
            }
            switch character {
            case "\\":
                escaped = true
            case ",":
                items.append(current)
                current = ""
                pendingSpace = ""
            case _ where character.isTrimmedInLists:
                // Spaces inside an item are kept; at its ends they are trimmed.
                if !current.isEmpty { pendingSpace.append(character) }
            default:
                current += pendingSpace
                pendingSpace = ""
                current.append(character)
            }
        }
        if escaped { current += pendingSpace + "\\" }
        items.append(current)
        if items == [""] { return [] }
        if let empty = items.firstIndex(of: "") {
            throw StorageError(
                .typeMismatch, expectedType: expectedType, foundKind: "malformed list text",
                message: "item \(empty + 1) of \(items.count) is empty (write '\\,' for a comma inside an item)"
            )
        }
        return items
    }
}

extension Character {
    /// White space or a line break, as `String.trimmingWhitespace` trims it.
    fileprivate var isTrimmedInLists: Bool { unicodeScalars.allSatisfy(\.isTrimmableWhitespace) }
}
