extension String {
    /// The text without white space and line breaks at its ends, as Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` trims it; no copy when nothing is trimmed.
    package var trimmingWhitespace: String {
        let utf8 = self.utf8
        guard let first = utf8.first, let last = utf8.last else { return self }
        // An ASCII character other than a space or a control character is never white space.
        if first > 0x20, first < 0x80, last > 0x20, last < 0x80 { return self }
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.isTrimmableWhitespace }),
            let end = scalars.lastIndex(where: { !$0.isTrimmableWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }
}

extension Unicode.Scalar {
    /// Whether Foundation's `.whitespacesAndNewlines` holds the scalar: the Unicode
    /// `White_Space` property (spaces, tabs, line breaks, U+0085, the line and paragraph
    /// separators) and U+200B ZERO WIDTH SPACE, which Foundation counts as a space too.
    package var isTrimmableWhitespace: Bool {
        properties.isWhitespace || value == 0x200B
    }
}
