public import Foundation
public import StoredSettings

/// A ready-made `config` subcommand for a command-line tool: list, read, change and reset the
/// settings of a `SettingsGroup`, like `git config`.
///
/// Mount it in two lines, before the tool's own argument parsing:
///
/// ```swift
/// let config = SettingsCommand(AppSettings(store: store), toolName: "daybook")
/// if arguments.first == "config" { exit(config.run(arguments: Array(arguments.dropFirst())).rawValue) }
/// ```
///
/// ```
/// daybook config list [--show-origin] [--json]
/// daybook config get KEY [--show-secret] [--show-origin]
/// daybook config set KEY VALUE
/// daybook config unset KEY
/// daybook config reset (KEY... | --all)
/// daybook config path
/// daybook config schema [--declared-only] [--draft 7|2020-12]
/// daybook config check [FILE]
/// ```
///
/// - `list` prints an aligned table for people (`KEY TYPE VALUE`, plus `ORIGIN` with
///   `--show-origin`), or with `--json` a JSON array for scripts. Secret values show as
///   `<redacted>`. For settings on a `LayeredStore`, it also warns on standard error, once
///   per process and without changing the status, of keys in the file that no setting uses
///   (with a did-you-mean hint) and of the layers' own warnings.
/// - `set` reads the text as the setting's declared type (`true`/`yes`/`1` for a Bool, ISO 8601
///   for a Date, a case's raw value for an enum, JSON for structures) and writes nothing when
///   it does not fit: `autoReload expects a Bool (true or false; also yes/no, on/off, 1/0),
///   got "maybe"`. `set layout.indent 4` sets one field of a structure (JSON names, dots for
///   fields inside fields) and keeps the others, as `--layout.indent 4` does for one run. When
///   a higher layer of a `LayeredStore` (an environment variable) still overrides the key, a note
///   says so.
/// - `get --show-origin` prints where the value comes from, a tab, and the value, as
///   `git config --show-origin` does.
/// - `unset` and `reset` remove stored values, so the defaults apply; `reset --all` removes
///   every declared setting's value (other keys in the file are left alone). `unset` of a key
///   the file does not hold writes nothing and exits 5, as `git config --unset` does.
/// - `path` prints the settings file that writes go to, even when ``CommandLineSettings``
///   could not open it (a file that does not parse); every other subcommand then stops with
///   that problem (exit 65 for bad data) and leaves the file as it is.
/// - `schema` prints a JSON Schema (draft 2020-12) of the settings file, so that an editor
///   completes and checks it (`SettingsGroup.jsonSchema(title:strict:draft:)` describes what it says);
///   `--declared-only` prints the strict schema, which refuses keys no setting declares, for a
///   file that serves these settings only.
///   `--draft 7` writes the same schema in draft-07's keywords, for editors that implement it.
/// - `check` reads a settings file (the tool's own by default) as the tool does and writes
///   nothing: each problem on a line naming the setting and its line and column, exit 65 when
///   there is one.
/// - `--help` (or `-h`) prints the help: of `config` alone, or after a subcommand, of that
///   subcommand, except as the VALUE of `set`: `config set title --help` stores the text `--help`.
///
/// Exit status follows sysexits (``ExitCode``): 0 success, 1 no such setting (or an unset
/// optional for `get`), 5 `unset` of a key the file does not hold, 64 usage error, 65 a value that does not fit its type or that the store
/// cannot hold (NaN or an infinity in a JSON file), 74 a write that failed.
///
/// Thread-safety: `SettingsCommand` is an immutable value; `run` may be called from any
/// thread.
public struct SettingsCommand: Sendable {
    /// The tool's name, used in the help text and in messages (`daybook`).
    public let toolName: String
    /// The name the subcommand is mounted under (`config`).
    public let commandName: String

    let settings: [(name: String, setting: any AnyStoredSetting)]

    /// Creates the command for the settings of `group`, with the stores they were created on.
    ///
    /// - Parameters:
    ///   - group: The settings, usually created on a `LayeredStore`.
    ///   - toolName: The tool's name for help and messages; by default the executable's name.
    ///   - commandName: The subcommand's name in help and messages; `config` by default.
    public init(
        _ group: some SettingsGroup,
        toolName: String = ProcessInfo.processInfo.processName,
        commandName: String = "config"
    ) {
        self.settings = group.storedSettings()
        self.toolName = toolName
        self.commandName = commandName
    }

    /// Runs the subcommand, writing to standard output and standard error.
    ///
    /// When the subcommand succeeded but its output could not be written (standard output is
    /// a closed pipe, as in `tool config list | true` in a tool that ignores `SIGPIPE`, or a full
    /// disk), one line says so on standard error and the status is ``ExitCode/ioError`` (74).
    ///
    /// - Parameter arguments: The arguments after `config`, such as `["set", "theme", "dark"]`.
    /// - Returns: The exit status (see ``ExitCode``).
    public func run(arguments: [String]) -> ExitCode {
        var output = StandardStream.output
        var error = StandardStream.error
        let status = run(arguments: arguments, output: &output, error: &error)
        if status == .success, let failure = output.failure {
            error.write("\(toolName) \(commandName): \(failure).\n")
            return .ioError
        }
        return status
    }

    /// Runs the subcommand, writing results to `output` and messages to `error`.
    ///
    /// - Parameters:
    ///   - arguments: The arguments after `config`, such as `["set", "theme", "dark"]`.
    ///   - output: Receives the results (tables, values, JSON, help).
    ///   - error: Receives one line per problem, starting with `<tool> config:`.
    /// - Returns: The exit status (see ``ExitCode``).
    public func run(
        arguments: [String], output: inout some TextOutputStream, error: inout some TextOutputStream
    ) -> ExitCode {
        var context = Context(command: self)
        let status = execute(arguments, &context)
        output.write(context.output)
        error.write(context.error)
        return status
    }

    /// What one run writes.
    struct Context {
        let command: SettingsCommand
        var output = ""
        var error = ""

        mutating func print(_ line: String) {
            output += line + "\n"
        }

        mutating func fail(_ status: ExitCode, _ message: String) -> ExitCode {
            error += "\(command.toolName) \(command.commandName): \(message)\n"
            return status
        }

        mutating func usage(_ message: String) -> ExitCode {
            fail(.usage, "\(message). See '\(command.toolName) \(command.commandName) --help'.")
        }
    }

    private func execute(_ arguments: [String], _ context: inout Context) -> ExitCode {
        guard let verb = arguments.first else {
            context.error += helpText
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        // `set KEY VALUE` stores any text, `-h` and `--help` included: only right after `set`
        // do they ask for help.
        let helpOptions = ["--help", "-h"]
        let asksForHelp =
            verb == "set"
            ? rest.first.map(helpOptions.contains) ?? false
            : rest.contains(where: helpOptions.contains)
        let subcommand = Self.subcommandList.first { $0.name == verb }
        if ["--help", "-h", "help"].contains(verb) || asksForHelp {
            context.output += subcommand.map(helpText(for:)) ?? helpText
            return .success
        }
        // A settings file that does not open stops every subcommand but `path`, which names it,
        // and `check`, which reads it again to say what is wrong.
        if let file = writableStore as? UnreadableFile, subcommand != nil, verb != "check" {
            guard verb == "path" else { return context.fail(.forFailure(file.error.code), file.error.description) }
            context.error += "\(toolName) \(commandName): warning: \(file.error)\n"
        }
        switch verb {
        case "list": return list(rest, &context)
        case "get": return get(rest, &context)
        case "set": return set(rest, &context)
        case "unset": return unset(rest, &context)
        case "reset": return reset(rest, &context)
        case "path": return path(rest, &context)
        case "schema": return schema(rest, &context)
        case "check": return check(rest, &context)
        default:
            let hint =
                closestMatch(to: verb, among: Self.subcommandList.map(\.name)).map { " (did you mean '\($0)'?)" } ?? ""
            return context.usage("unknown subcommand '\(verb)'\(hint)")
        }
    }

    /// The setting with `key` (or that property name).
    func setting(named key: String) -> (name: String, setting: any AnyStoredSetting)? {
        settings.first { $0.setting.key == key } ?? settings.first { $0.name == key }
    }
}
