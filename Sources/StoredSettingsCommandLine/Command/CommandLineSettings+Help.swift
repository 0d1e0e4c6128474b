import StoredSettings

extension CommandLineSettings {
    /// The help text of a tool: the tool's own `overview`, then a SETTINGS section generated
    /// from `Group`'s declarations.
    ///
    /// The tool writes what only it knows (what it does, its usage line, its commands and its
    /// own options); each setting then gets an entry, in declaration order, with the option
    /// that sets it for one run, its help sentence, its type with the values it takes, its
    /// default, and its environment variable:
    ///
    /// ```swift
    /// let notes = try CommandLineSettings<NotesSettings>(toolName: "notes", messages: &standardError)
    /// if notes.helpRequested {
    ///     print(CommandLineSettings<NotesSettings>.helpText(toolName: "notes", overview: """
    ///         OVERVIEW: Take notes.
    ///
    ///         USAGE: notes [options] [<file>]
    ///         """), terminator: "")
    ///     exit(0)
    /// }
    /// ```
    ///
    /// prints, after the overview and a blank line:
    ///
    /// ```
    /// SETTINGS:
    ///   --set KEY=VALUE         Any setting, by its key.
    ///   --wrap-column N         Where long lines wrap.
    ///                           Int (a whole number); default: 80
    ///                           Environment: NOTES_WRAP_COLUMN
    ///   --[no-]auto-reload      Reload notes changed on disk.
    ///                           Bool; default: true
    ///                           Environment: NOTES_AUTO_RELOAD
    /// ```
    ///
    /// The names are those ``CommandLineStore`` and `EnvironmentStore` read: a `Bool` is a
    /// flag pair (`--[no-]auto-reload`); a list's option takes items separated by commas or
    /// is repeated (`--tags TEXT...`); a structure has an option per field
    /// (`--layout.indent N`) and a variable per field (`NOTES_LAYOUT_INDENT`); an enum lists
    /// its cases (`--theme plain|color`); a date says its format; a setting whose option name
    /// is reserved is given as `--set key=VALUE`. A secret is marked and its default never
    /// shown, and its entry names the `NAME_FILE` variable that reads it from a file.
    /// Descriptions start at column 26 and wrap at `width`, as swift-argument-parser lays out
    /// its help.
    ///
    /// - Parameters:
    ///   - toolName: The tool's name, which gives the default environment prefix.
    ///   - environmentPrefix: The prefix of the tool's variables without the `_`, as given to
    ///     the initializer; by default `toolName` in capitals.
    ///   - overview: The tool's own text, printed first and followed by a blank line: its
    ///     overview, usage line, commands and own options.
    ///   - width: The width the descriptions wrap at; 80 by default.
    /// - Returns: The help text, ending with a line break.
    ///
    /// Thread-safety: reads only the declarations (on a throwaway store); call it from any
    /// thread.
    public static func helpText(
        toolName: String, environmentPrefix: String? = nil, overview: String, width: Int = 80
    ) -> String {
        var text = overview
        while text.last?.isNewline == true { text.removeLast() }
        if !text.isEmpty { text += "\n\n" }
        return text
            + SettingsHelp.section(
                for: Group.self, prefix: environmentPrefix ?? defaultPrefix(for: toolName), width: width)
    }
}

extension CommandLineSettings {
    /// A completion script for `shell`, written from `Group`'s declarations, as
    /// swift-argument-parser's `--generate-completion-script` writes one.
    ///
    /// It completes the tool's options (a `Bool` setting's flag and its `--no-` form, each
    /// structure field's option, `--set` with the keys), an enum setting's values after its
    /// option, the tool's `commands`, and `configCommand` with its subcommands, the keys
    /// `get`, `set`, `unset` and `reset` take, a key's values after `set KEY`, and files after
    /// `check`. ``parseOrExit(toolName:arguments:environment:environmentPrefix:file:fallbacks:unknownKeys:otherVariables:configCommand:overview:commands:)``
    /// prints it for `--generate-completion-script SHELL`; a tool with its own start prints it
    /// the same way:
    ///
    /// ```swift
    /// let arguments = Array(CommandLine.arguments.dropFirst())
    /// if arguments.first == "--generate-completion-script", let shell = arguments.dropFirst().first.flatMap(CompletionShell.init) {
    ///     print(CommandLineSettings<NotesSettings>.completionScript(for: shell, toolName: "notes"), terminator: "")
    ///     exit(0)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - shell: The shell the script is for.
    ///   - toolName: The tool's name as users type it.
    ///   - commands: The tool's own commands (`write`, `show`), offered where a command may come.
    ///   - configCommand: The name ``SettingsCommand`` is mounted under, or `nil` for none.
    /// - Returns: The script, ending with a line break.
    ///
    /// Thread-safety: reads only the declarations; call it from any thread.
    public static func completionScript(
        for shell: CompletionShell, toolName: String, commands: [String] = [], configCommand: String? = "config"
    ) -> String {
        CompletionScript(group: Group.self, toolName: toolName, commands: commands, configCommand: configCommand)
            .text(for: shell)
    }
}
