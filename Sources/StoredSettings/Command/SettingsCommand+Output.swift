extension SettingsCommand {
    /// The help text `--help` prints, listing the subcommands and the declared settings.
    public var helpText: String {
        let invocation = "\(toolName) \(commandName)"
        var text = """
            OVERVIEW: Show and change the settings of \(toolName).

            USAGE: \(invocation) <subcommand>

            SUBCOMMANDS:

            """
        text += Self.table([
            ["  list [--show-origin] [--json]", "Show every setting, its value and where the value comes from."],
            ["  get KEY [--show-secret]", "Print the value of one setting."],
            ["  set KEY VALUE", "Store a value, checked against the setting's type."],
            ["  unset KEY", "Remove the stored value, so the default applies."],
            ["  reset (KEY... | --all)", "Remove the stored values of the given settings, or of all."],
            ["  path", "Print the path of the settings file."],
        ])
        if !settings.isEmpty {
            text += "\nSETTINGS:\n"
            text += Self.table(settings.map { _, setting in
                ["  " + setting.key, setting.declaredTypeName, setting.help ?? ""]
            })
        }
        text += """

            EXIT STATUS: 0 success, 1 no such setting, 64 usage error, 65 invalid value,
            74 the settings could not be written.

            """
        return text
    }

    /// Rows as columns separated by two spaces, each as wide as its widest cell; no trailing
    /// spaces.
    static func table(_ rows: [[String]]) -> String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var text = ""
        for row in rows {
            var line = ""
            for (index, cell) in row.enumerated() {
                line += index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count + 2)
            }
            while line.last == " " { line.removeLast() }
            text += line + "\n"
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
