import StoredSettings

/// The SETTINGS section of a tool's help, written from a settings group's declarations with
/// the option and variable names that ``CommandLineStore`` and `EnvironmentStore` read.
///
/// Laid out as swift-argument-parser lays out options: two spaces, a names column, and the
/// description from column ``nameColumn``, wrapped to the width; an option too wide for its
/// column puts the description on the lines below it.
struct SettingsHelp {
    /// One entry of the section: an option and its description's paragraphs.
    struct Entry {
        var name: String
        var paragraphs: [String]
    }

    /// The column where descriptions start.
    static let nameColumn = 26

    /// The section for the settings of `group`, read from variables with `prefix`.
    static func section(for group: any SettingsGroup.Type, prefix: String, width: Int) -> String {
        let parser = CommandLineStore.parser(for: group.declarations())
        let environment = EnvironmentStore(prefix: prefix, environment: [:])
        var entries = [Entry(name: "--set KEY=VALUE", paragraphs: ["Any setting, by its key."])]
        for (_, setting) in group.declaredSettings() {
            entries += self.entries(for: setting, option: parser.option(forKey: setting.key), environment: environment)
        }
        let closing =
            "Options are for this run only; they win over environment variables, which win over the "
            + "settings file."
        return "SETTINGS:\n" + entries.map { layout($0, width: width) }.joined() + "\n"
            + wrap(closing, width: width).map { $0 + "\n" }.joined()
    }

    /// The entries of one setting: its option spelling, help sentence, type and default, and
    /// variables; then, for a structure, one entry per field option with its variable. A
    /// secret's default is never shown.
    static func entries(
        for setting: any AnyStoredSetting, option: CommandLineStore.Option?, environment: EnvironmentStore
    ) -> [Entry] {
        var hint = setting.valueHint.map { " (\($0))" } ?? ""
        var fields: [Entry] = []
        let variable = environment.variableName(forKey: setting.key)
        if let option {
            switch option.shape {
            case .boolean:
                hint = ""
            case .list:
                hint = " (items separated by commas, or the option repeated)"
            case .structure(let shapes):
                for path in EnvironmentDeclarations.fieldPaths(shapes) {
                    let spelled = path.map { KeyWords.kebabCase($0) ?? $0 }.joined(separator: ".")
                    let name =
                        "--\(option.name).\(spelled) \(Self.placeholder(of: setting.defaultStoredValue, at: path))"
                    var paragraphs = ["One field of \(setting.key); the others stay."]
                    if let variable, let field = EnvironmentDeclarations.fieldVariable(variable, path: path) {
                        paragraphs.append("Environment: \(field)")
                    }
                    fields.append(Entry(name: name, paragraphs: paragraphs))
                }
            case .other:
                break
            }
        }
        var type = setting.declaredTypeName + hint
        if setting.isSecret {
            type += "; secret, its value is never shown"
        } else if let value = setting.defaultStoredValue {
            type += "; default: " + SettingsCommand.tableText(ValueText.display(value))
        }
        var paragraphs = (setting.help.map { [$0] } ?? []) + [type]
        if let variable {
            var variables = "Environment: \(variable)"
            if setting.isSecret { variables += ", or \(variable)_FILE naming a file that holds it" }
            paragraphs.append(variables)
        }
        return [Entry(name: spelling(of: setting, option: option), paragraphs: paragraphs)] + fields
    }

    /// How the option of `setting` is written: `--[no-]dry-run`, `--jobs N`, or `--set all=VALUE`
    /// for a setting without an option of its own.
    static func spelling(of setting: any AnyStoredSetting, option: CommandLineStore.Option?) -> String {
        guard let option else { return "--set \(setting.key)=\(setting.valuePlaceholder)" }
        return option.isFlag ? "--[no-]\(option.name)" : "--\(option.name) \(setting.valuePlaceholder)"
    }

    /// How the field at `path` of `value` is named after its option: `N`, `TEXT`, `JSON`.
    static func placeholder(of value: StoredValue?, at path: [String]) -> String {
        var field = value
        for name in path {
            guard case .dictionary(let fields)? = field else { return "VALUE" }
            field = fields[name]
        }
        switch field {
        case .bool?: return "true|false"
        case .int?, .double?: return "N"
        case .string?: return "TEXT"
        case .date?: return "DATE"
        case .data?: return "BASE64"
        case .array?, .dictionary?: return "JSON"
        case nil: return "VALUE"
        }
    }

    /// The lines of `entry`: the option in its column, the description wrapped beside it, or
    /// below it when the option is too wide for the column.
    static func layout(_ entry: Entry, width: Int) -> String {
        var description = entry.paragraphs.flatMap { wrap($0, width: max(20, width - nameColumn)) }
        let label = "  " + entry.name
        var lines = [label]
        if label.count + 2 <= nameColumn, !description.isEmpty {
            lines = [label + String(repeating: " ", count: nameColumn - label.count) + description.removeFirst()]
        }
        lines += description.map { String(repeating: " ", count: nameColumn) + $0 }
        return lines.map { $0 + "\n" }.joined()
    }

    /// `text` in lines of at most `width` characters, broken at spaces; a longer word has a
    /// line of its own.
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
