/// How setting keys become environment variable and command-line option names.
///
/// A key is split into words, then joined in the target style:
/// - `.`, `-`, `_`, `/`, `:` and spaces separate words;
/// - a capital letter after a lowercase letter or digit starts a word (`autoReload` →
///   `auto`, `Reload`);
/// - a run of capitals is one word (an acronym), ending before a capital that is followed by
///   a lowercase letter (`HTTPServer` → `HTTP`, `Server`; `httpURL` → `http`, `URL`), except
///   for a plural `s` ending the key or word (`userIDs` → `user`, `IDs`);
/// - digits stay with the word before them (`http2Enabled` → `http2`, `Enabled`).
///
/// Keys with other characters (non-ASCII letters, emoji, `@`) have no name: they cannot be set
/// from the environment or by a dedicated option, only with `--set key=value`.
package enum KeyWords {
    /// The words of `key`, or `nil` when the key has characters no variable name can hold.
    package static func words(of key: String) -> [String]? {
        let characters = Array(key)
        var words: [String] = []
        var current = ""
        func flush() {
            if !current.isEmpty { words.append(current) }
            current = ""
        }
        for (index, character) in characters.enumerated() {
            guard character.isASCII else { return nil }
            if character.isLetter || character.isNumber {
                if character.isUppercase, let previous = current.last {
                    let next = index + 1 < characters.count ? characters[index + 1] : nil
                    let afterNext = index + 2 < characters.count ? characters[index + 2] : nil
                    let nextIsPluralS = next == "s" && !(afterNext?.isLowercase ?? false)
                    if previous.isLowercase || previous.isNumber
                        || (previous.isUppercase && (next?.isLowercase ?? false) && !nextIsPluralS)
                    {
                        flush()
                    }
                }
                current.append(character)
            } else if ".-_/: ".contains(character) {
                flush()
            } else {
                return nil
            }
        }
        flush()
        return words.isEmpty ? nil : words
    }

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
