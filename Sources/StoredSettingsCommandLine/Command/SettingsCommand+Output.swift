import StoredSettings

extension SettingsCommand {
    /// Rows as columns separated by two spaces, each as wide as its widest cell on a terminal
    /// (see ``terminalWidth(of:)``); no trailing spaces. With `width`, a last cell that would
    /// pass it is wrapped at spaces, its further lines starting in its column (help text);
    /// without, every row stays one line (listings that scripts read).
    static func table(wrappingAt width: Int? = nil, _ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], terminalWidth(of: cell)) }
        }
        var text = ""
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated().dropLast() {
                line += cell + String(repeating: " ", count: widths[index] - terminalWidth(of: cell) + 2)
            }
            let last = row.last ?? ""
            let column = terminalWidth(of: line)
            let lines = width.map { SettingsHelp.wrap(last, width: max(20, $0 - column)) } ?? [last]
            for (index, part) in (lines.isEmpty ? [""] : lines).enumerated() {
                var wrapped = (index == 0 ? line : String(repeating: " ", count: column)) + part
                while wrapped.last == " " { wrapped.removeLast() }
                text += wrapped + "\n"
            }
        }
        return text
    }

    /// A value for one table cell: quoted when it has line breaks, tabs or other control
    /// characters, or is empty, so the table stays one line per setting.
    static func tableText(_ value: String) -> String {
        if value.isEmpty || value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return ValueText.quoted(value)
        }
        return value
    }

    /// The descriptions as a pretty-printed JSON array, one object per setting with the
    /// fields `key`, `property`, `type`, `value`, `default`, `origin`, `secret`, and when they
    /// apply `help` and `problem`. `value` and `default` are left out when there is none.
    static func json(_ descriptions: [SettingDescription]) -> String {
        let items = descriptions.map { description -> StoredValue in
            var object: [String: StoredValue] = [
                "key": .string(description.key),
                "property": .string(description.propertyName),
                "type": .string(description.typeName),
                "origin": .string(description.origin),
                "secret": .bool(description.isSecret),
            ]
            if let value = description.value, description.problem == nil { object["value"] = jsonSafe(value) }
            if let value = description.defaultValue { object["default"] = jsonSafe(value) }
            if let help = description.help { object["help"] = .string(help) }
            if let problem = description.problem { object["problem"] = .string(problem.description) }
            return .dictionary(object)
        }
        return (try? StoredValueJSON.string(from: .array(items), pretty: true)) ?? "[]\n"
    }

    /// `value`, or its text when JSON has no form for it (NaN, infinity).
    private static func jsonSafe(_ value: StoredValue) -> StoredValue {
        (try? StoredValueJSON.data(from: value, pretty: false)) != nil ? value : .string(ValueText.display(value))
    }
}

extension SettingsCommand {
    /// The columns `text` takes on a terminal: 2 for each East Asian wide or fullwidth
    /// character and each emoji shown as a picture, 0 for a cluster of combining marks or
    /// format characters alone, 1 for every other character (a grapheme cluster, so `é` and
    /// a family emoji count once).
    package static func terminalWidth(of text: String) -> Int {
        text.reduce(0) { total, character in
            let scalars = character.unicodeScalars
            if scalars.contains(where: { isWide($0) }) || (scalars.count > 1 && scalars.contains("\u{FE0F}")) {
                return total + 2
            }
            let invisible = scalars.allSatisfy { scalar in
                switch scalar.properties.generalCategory {
                case .nonspacingMark, .enclosingMark, .format: return true
                default: return false
                }
            }
            return total + (invisible ? 0 : 1)
        }
    }

    /// Whether `scalar` is shown two columns wide: an emoji with picture presentation or an
    /// East Asian wide or fullwidth character (Hangul, CJK, kana, fullwidth forms).
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.isEmojiPresentation { return true }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19,
            0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }
}
