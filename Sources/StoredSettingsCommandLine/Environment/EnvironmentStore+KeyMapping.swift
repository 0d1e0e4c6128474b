import StoredSettings

/// How setting keys become environment variable and command-line option names.
///
/// A key is split into words at `.`, `-`, `_`, `/`, `:` and spaces; before a capital after a
/// lowercase letter or digit (`autoReload`); and before the last capital of a run followed by
/// a lowercase letter other than a final plural `s` (`HTTPServer`, but `userIDs`). Digits stay
/// with the word before them (`http2Enabled`). A key with any other character has no name.
package enum KeyWords {
    /// The words of `key`, or `nil` when the key has characters no variable name can hold;
    /// kept for the first 4,096 keys, since every layer splits each key it is asked for.
    package static func words(of key: String) -> [String]? {
        if let known = splitKeys.withLock({ $0[key] }) { return known }
        let words = split(key)
        splitKeys.withLock { if $0.count < 4_096 { $0[key] = words } }
        return words
    }

    private static let splitKeys = Lock<[String: [String]?]>([:])

    private static func split(_ key: String) -> [String]? {
        let bytes = Array(key.utf8)
        var words: [String] = []
        var current: [UInt8] = []
        func flush() {
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
        }
        for index in bytes.indices {
            let byte = bytes[index]
            if isUppercase(byte) || isLowercase(byte) || isDigit(byte) {
                if isUppercase(byte), let previous = current.last {
                    let next = index + 1 < bytes.count ? bytes[index + 1] : nil
                    let afterNext = index + 2 < bytes.count ? bytes[index + 2] : nil
                    let nextIsLowercase = next.map(isLowercase) ?? false
                    let nextIsPluralS = next == UInt8(ascii: "s") && !(afterNext.map(isLowercase) ?? false)
                    if isLowercase(previous) || isDigit(previous)
                        || (isUppercase(previous) && nextIsLowercase && !nextIsPluralS)
                    {
                        flush()
                    }
                }
                current.append(byte)
            } else if ".-_/: ".utf8.contains(byte) {
                flush()
            } else {
                return nil
            }
        }
        flush()
        return words.isEmpty ? nil : words
    }

    private static func isUppercase(_ byte: UInt8) -> Bool { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) }
    private static func isLowercase(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// `AUTO_RELOAD` for `autoReload`; `nil` when the key has no words.
    package static func screamingSnakeCase(_ key: String) -> String? {
        words(of: key).map { $0.map { $0.uppercased() }.joined(separator: "_") }
    }

    /// `auto-reload` for `autoReload`; `nil` when the key has no words.
    package static func kebabCase(_ key: String) -> String? {
        words(of: key).map { $0.map { $0.lowercased() }.joined(separator: "-") }
    }

    /// The lower camel case key for `AUTO_RELOAD`: `autoReload`. `nil` when nothing is left.
    package static func camelCase(fromSnakeCase name: String) -> String? {
        let parts = name.split(separator: "_").filter { !$0.isEmpty }
        guard let first = parts.first else { return nil }
        return first.lowercased()
            + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
    }
}
