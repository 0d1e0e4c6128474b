import StoredSettings

extension SettingsCommand {
    /// One subcommand, as its help and the completion scripts tell it.
    struct Subcommand {
        /// `get`.
        var name: String
        /// What follows the name in its usage line: `KEY [--show-origin] [--show-secret]`.
        var arguments: String
        /// One sentence: what it does.
        var summary: String
        /// Its options and what each does.
        var options: [(name: String, help: String)] = []
        /// Whether its arguments are setting keys (`get KEY`), for completion.
        var takesKeys = false
    }

    /// The subcommands, in the order help lists them.
    static let subcommandList = [
        Subcommand(
            name: "list", arguments: "[--show-origin] [--json]",
            summary: "Show every setting, its value and where the value comes from.",
            options: [
                ("--show-origin", "Add a column naming where each value comes from."),
                ("--json", "Print a JSON array, one object per setting, for scripts."),
            ]),
        Subcommand(
            name: "get", arguments: "KEY [--show-origin] [--show-secret]", summary: "Print the value of one setting.",
            options: [
                ("--show-origin", "Print where the value comes from, a tab, then the value."),
                ("--show-secret", "Print a secret's value instead of <redacted>."),
            ], takesKeys: true),
        Subcommand(
            name: "set", arguments: "KEY VALUE", summary: "Store a value, checked against the setting's type.",
            options: [], takesKeys: true),
        Subcommand(
            name: "unset", arguments: "KEY", summary: "Remove the stored value, so the default applies.",
            takesKeys: true),
        Subcommand(
            name: "reset", arguments: "(KEY... | --all)",
            summary: "Remove the stored values of the given settings, or of all.",
            options: [("--all", "Remove the stored value of every declared setting.")], takesKeys: true),
        Subcommand(name: "path", arguments: "", summary: "Print the path of the settings file."),
        Subcommand(
            name: "schema", arguments: "[--declared-only] [--draft V]",
            summary: "Print a JSON Schema of the settings file, for editors.",
            options: [
                ("--declared-only", "Refuse keys no setting declares."),
                (
                    "--draft V",
                    "The JSON Schema draft to write: 2020-12 (the default), or 7 for editors that implement draft-07."
                ),
            ]),
        Subcommand(
            name: "check", arguments: "[FILE]",
            summary: "Check a settings file as the tool reads it, writing nothing.",
            options: [("FILE", "The file to check; the tool's own settings file by default.")]),
    ]

    /// The help text `--help` prints, listing the subcommands and the declared settings: each
    /// setting's key, type, option for one run (`--page-size N`, `--[no-]show-dates`) and help
    /// sentence, descriptions wrapped to fit 80 columns.
    public var helpText: String {
        let invocation = "\(toolName) \(commandName)"
        var text = """
            OVERVIEW: Show and change the settings of \(toolName).

            USAGE: \(invocation) <subcommand>

            SUBCOMMANDS:

            """
        text += Self.table(
            wrappingAt: 80,
            Self.subcommandList.map { ["  " + [$0.name, $0.arguments].joined(separator: " "), $0.summary] })
        if !settings.isEmpty {
            text += "\nSETTINGS:\n"
            let parser = CommandLineStore.parser(for: settings.map(\.setting.declaration))
            text += Self.table(
                wrappingAt: 80,
                settings.map { _, setting in
                    let option = SettingsHelp.spelling(of: setting, option: parser.option(forKey: setting.key))
                    return ["  " + setting.key, setting.declaredTypeName, option, setting.help ?? ""]
                })
        }
        text += """

            See '\(invocation) <subcommand> --help' for one subcommand.

            EXIT STATUS: 0 success, 1 no such setting, 64 usage error, 65 invalid value,
            66 no such file, 74 the settings could not be read or written.

            """
        return text
    }

    /// The help of one subcommand (`config get --help`): what it does, its usage line, its
    /// arguments and its options.
    func helpText(for subcommand: Subcommand) -> String {
        let usage = "\(toolName) \(commandName) \(subcommand.name) \(subcommand.arguments)"
        var text = "OVERVIEW: \(subcommand.summary)\n\nUSAGE: \(usage.trimmingSuffix())\n\n"
        let rows = subcommand.options.map { ["  " + $0.name, $0.help] } + [["  -h, --help", "Show this help."]]
        let arguments = rows.filter { !$0[0].hasPrefix("  -") }
        if !arguments.isEmpty { text += "ARGUMENTS:\n" + Self.table(wrappingAt: 80, arguments) + "\n" }
        return text + "OPTIONS:\n" + Self.table(wrappingAt: 80, rows.filter { $0[0].hasPrefix("  -") })
    }
}

extension String {
    /// The text without spaces at its end.
    fileprivate func trimmingSuffix() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
