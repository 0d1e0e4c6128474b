import Foundation
public import StoredSettings

/// The settings of a command-line tool, read from its options, its environment variables and
/// its settings file, checked before the tool does anything: the entry point of a tool built
/// on StoredSettings.
///
/// One call makes the layered store (options for this run above `PREFIX_*` environment
/// variables above the settings file, with the group's declarations), stops on bad input and
/// prints the warnings once:
///
/// ```swift
/// let notes = CommandLineSettings<NotesSettings>.parseOrExit(toolName: "notes")
/// print("Opening \(notes.arguments.first ?? "today.md") in \(notes.settings.editor)")
/// ```
///
/// Code that returns an exit status instead of exiting (so it can be tested in process) calls
/// the initializer and prints the ``Failure``:
///
/// ```swift
/// let notes: CommandLineSettings<NotesSettings>
/// do {
///     notes = try CommandLineSettings(toolName: "notes", arguments: arguments, environment: environment,
///                                     file: file, messages: &standardError)
/// } catch {
///     print(error, to: &standardError)
///     return error.exitCode
/// }
/// ```
///
/// What stops the run (the ``Failure``), with sysexits statuses:
/// - 64 (``SettingsCommand/ExitCode/usage``): a malformed argument (`--set` without `=`, an
///   option without its value, `--auto-reload false`: write `--auto-reload=false` or
///   `--no-auto-reload`), or an option or `--set` whose value does not read as its setting's
///   type (`--wrap-column wide`): `notes: Setting 'wrapColumn' in --wrap-column on the command
///   line: expected Int, found string.`
/// - 65 (``SettingsCommand/ExitCode/dataError``): an environment variable (or a field override
///   from one) whose value does not read as its setting's type, or that the environment store
///   rejected (a value that is not valid UTF-8, a secret file that cannot be read), naming
///   the variable.
/// - with ``UnknownKeys/reject``, an unknown key: 64 for an option, 65 for an environment
///   variable or a key in the file.
/// - 74 (``SettingsCommand/ExitCode/ioError``): the default settings file cannot be opened (65
///   when it does not parse, nests too deep or is too large: bad data, as `stored` says).
///
/// A value in the settings file that does not read as its type does not stop the run: the
/// setting reads its default and reports it, as always, and `config set` repairs it. Nor is a
/// run stopped by a bad one-run value when the remaining arguments start with the `config`
/// subcommand (`configCommand`): `notes --wrap-column wide config list --show-origin` is how a
/// user finds where a bad value came from, and `config list` and `config get` exit 65 on it.
///
/// Warnings (`LayeredStore/warnings`: keys in the file and `PREFIX_*` variables no setting
/// uses, misspelt options, secret files others can read) are written to `messages` as
/// `notes: warning: …` lines, each once per process: the `config` subcommand does not repeat
/// them.
///
/// `--help` and `-h` are left in ``arguments`` and set ``helpRequested``; the tool then prints
/// ``helpText(toolName:environmentPrefix:overview:width:)``, which lists every setting's option
/// and variable, and exits 0.
///
/// Values from options and environment variables are for this run: they never reach the
/// settings file through an update or an in-place change (see `LayeredStore`).
///
/// Thread-safety: an immutable value; share it between tasks.
public struct CommandLineSettings<Group: SettingsGroup>: Sendable {
    /// The settings, on ``store``.
    public let settings: Group
    /// The arguments no setting used, in their order, for the tool's own parsing: the
    /// subcommand, file names, the tool's own options, and `--` with everything after it.
    public let arguments: [String]
    /// The layered store the settings read and write: the command line, the environment, the
    /// file, then any `fallbacks`.
    public let store: LayeredStore
    /// The warnings written to `messages` when the settings were read (those already reported
    /// earlier in the process included).
    public let warnings: [StorageError]
    /// Whether ``arguments`` hold `--help` or `-h` before any `--`: the tool should then print
    /// its ``helpText(toolName:environmentPrefix:overview:width:)`` and exit 0. Bad input
    /// stops the run before: the initializer throws whether or not help was asked for.
    public let helpRequested: Bool

    /// What to do with keys, variables and options that no declared setting uses.
    public enum UnknownKeys: Sendable {
        /// Write a warning with a did-you-mean hint and go on (the default).
        case warn
        /// Stop the run: exit status 64 for an option, 65 for an environment variable or a key
        /// in a file.
        case reject
    }

    /// Why the run cannot go on: every problem found, and the status to exit with.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        /// 64 for a problem with the arguments, 65 for one with the environment or a file, 74
        /// when the settings file cannot be opened. With problems of both kinds, 64.
        public let exitCode: SettingsCommand.ExitCode
        /// The problems, in the order of the layers (command line first); each names the key,
        /// the expected type where one applies, and the option, variable or file.
        public let problems: [StorageError]
        /// The tool's name, which starts each line of ``description``.
        public let toolName: String

        /// One line per problem, without a final line break: `notes: Setting 'wrapColumn' in
        /// --wrap-column on the command line: expected Int, found string.`
        public var description: String {
            problems.map { "\(toolName): \($0)" }.joined(separator: "\n")
        }
    }

    /// Reads and checks the settings of a tool, writing warnings to `messages`.
    ///
    /// - Parameters:
    ///   - toolName: The tool's name: the start of every message, the settings folder's name
    ///     for the default `file`, and (in capitals) the default environment prefix.
    ///   - arguments: The command-line arguments without the program name.
    ///   - environment: The environment variables; `nil` (the default) for the process's,
    ///     read from `environ` as `EnvironmentStore(prefix:)` reads them: only the variables
    ///     with the prefix are decoded, and one whose value is not valid UTF-8 stops the run
    ///     (65) naming the variable, rather than being read with U+FFFD in place of the bytes.
    ///   - environmentPrefix: The prefix of the tool's variables without the `_`; by default
    ///     `toolName` in capitals, with `_` for anything but letters and digits (`NOTES`).
    ///   - file: The writable layer; `nil` (the default) opens `FileStore(application:
    ///     toolName)`, `$XDG_CONFIG_HOME/<toolName>/settings.json`.
    ///   - fallbacks: Stores read after the file, such as shared defaults for a fleet.
    ///   - unknownKeys: Whether unknown keys are warnings (the default) or stop the run.
    ///   - otherVariables: Full names of variables with the prefix that the tool reads itself
    ///     and that are no settings (daybook's `DAYBOOK_ETCD`): never reported as unknown.
    ///   - configCommand: The subcommand under which bad one-run values do not stop the run,
    ///     or `nil` to stop always; `config` by default.
    ///   - messages: Receives the warnings, one `toolName: warning: …` line each. Problems the
    ///     library reports later (a wrong type in the file, read by a getter) are written the same
    ///     way: the default line of `StorageErrorReporter` starts with `toolName: warning:` from
    ///     here on, unless the tool set a handler of its own.
    /// - Throws: ``Failure`` with every problem found and the status to exit with; nothing has
    ///   been written to any store then.
    public init(
        toolName: String,
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        environment: [String: String]? = nil,
        environmentPrefix: String? = nil,
        file: (any Storable)? = nil,
        fallbacks: [any Storable] = [],
        unknownKeys: UnknownKeys = .warn,
        otherVariables: Set<String> = [],
        configCommand: String? = "config",
        messages: inout some TextOutputStream
    ) throws(Failure) {
        StorageErrorReporter.nameDefaultLines(after: toolName)
        let commandLine = CommandLineStore(arguments: arguments, declaredBy: Group.self)
        let prefix = environmentPrefix ?? Self.defaultPrefix(for: toolName)
        let environmentStore = EnvironmentStore(
            prefix: prefix, environment: environment,
            declaredBy: Group.self, otherVariables: otherVariables)
        let writable: any Storable
        if let file {
            writable = file
        } else {
            do {
                writable = try FileStore(application: toolName)
            } catch {
                let problem = StorageError(.io, wrapping: error)
                // `config path` still names a file that does not open; every other `config`
                // subcommand stops with the problem (`SettingsCommand`).
                let (variables, notUTF8) = ProcessEnvironment.variables(named: ["XDG_CONFIG_HOME", "HOME"])
                if let configCommand, commandLine.remainingArguments.first == configCommand,
                    let url = try? FileStore.defaultURL(application: toolName, environment: variables, notUTF8: notUTF8)
                {
                    writable = UnreadableFile(path: url.path, error: problem)
                } else {
                    let status: SettingsCommand.ExitCode =
                        problem.code == .notFound ? .ioError : .forFailure(problem.code)
                    throw Failure(exitCode: status, problems: [problem], toolName: toolName)
                }
            }
        }
        let store = LayeredStore(
            [commandLine, environmentStore, writable] + fallbacks, writingTo: writable, declaredBy: Group.self,
            reportingWarnings: false)
        let settings = Group(store: store)
        let remaining = commandLine.remainingArguments

        var check = InputCheck()
        let underConfig = configCommand != nil && remaining.first == configCommand
        for layer in store.layers {
            guard let diagnosing = layer as? any DiagnosingStore else { continue }
            let fromCommandLine = layer is CommandLineStore
            if underConfig, !fromCommandLine {
                // `config` still runs (so `config list --show-origin` shows where the other
                // values come from); the problem is written once, as an error line.
                for problem in diagnosing.errors where ReportedWarnings.isFirstReport(of: problem) {
                    messages.write("\(toolName): \(problem)\n")
                }
                continue
            }
            check.add(diagnosing.errors, fromCommandLine: fromCommandLine)
        }
        // The type's settings, derived once: the checks below need keys, types and secrecy only.
        let declared = Group.declaredSettings().map(\.setting)
        if !underConfig {
            check.addDecodingProblems(of: declared, in: store)
        }
        var printed: [StorageError] = []
        let secretsGiven = declared.filter {
            $0.isSecret
                && (commandLine.value(forKey: $0.key) != nil || !commandLine.fieldOverrides(forKey: $0.key).isEmpty)
        }
        let warnings =
            store.warnings + secretsGiven.map { Self.visibleSecretWarning($0, commandLine, environmentStore) }
        for warning in warnings {
            if unknownKeys == .reject, warning.code == .unknownKey {
                check.add([warning], fromCommandLine: warning.location == commandLine.location)
                continue
            }
            printed.append(warning)
            if ReportedWarnings.isFirstReport(of: warning) {
                messages.write("\(toolName): warning: \(warning)\n")
            }
        }
        if let status = check.exitCode {
            throw Failure(exitCode: status, problems: check.problems, toolName: toolName)
        }
        self.settings = settings
        self.arguments = remaining
        self.store = store
        self.warnings = printed
        self.helpRequested = remaining.prefix { $0 != "--" }.contains { $0 == "--help" || $0 == "-h" }
    }

    /// Reads and checks the settings of a tool like ``init(toolName:arguments:environment:environmentPrefix:file:fallbacks:unknownKeys:otherVariables:configCommand:messages:)``,
    /// writing warnings to standard error, and ends the process where the run is decided
    /// here, as swift-argument-parser's `parseOrExit` does:
    /// - on a ``Failure``, writes its lines to standard error and exits with its status;
    /// - with `--help` or `-h` before any `--`, writes ``helpText(toolName:environmentPrefix:overview:width:)``
    ///   with `overview` to standard output and exits 0;
    /// - for `--generate-completion-script bash|zsh|fish` as the first argument, writes
    ///   ``completionScript(for:toolName:commands:configCommand:)`` and exits 0, whatever the
    ///   settings hold;
    /// - when the first argument left is `configCommand`, runs ``SettingsCommand`` with the
    ///   arguments after it (so `config --help` and `config get --help` print their own help)
    ///   and exits with its status.
    ///
    /// ```swift
    /// let notes = CommandLineSettings<NotesSettings>.parseOrExit(
    ///     toolName: "notes", overview: "OVERVIEW: Take notes.\n\nUSAGE: notes [options] [<file>]")
    /// ```
    ///
    /// - Parameters:
    ///   - toolName: As for the initializer.
    ///   - arguments: As for the initializer; the process's arguments by default.
    ///   - environment: As for the initializer.
    ///   - environmentPrefix: As for the initializer.
    ///   - file: As for the initializer.
    ///   - fallbacks: As for the initializer.
    ///   - unknownKeys: As for the initializer.
    ///   - otherVariables: As for the initializer.
    ///   - configCommand: As for the initializer; the name `config` runs under.
    ///   - overview: The tool's own text that `--help` prints first: what it does, its usage
    ///     line, its commands and options; empty by default, so help shows the settings only.
    ///   - commands: The tool's own commands, which completion scripts offer.
    /// - Returns: The checked settings and the arguments no setting used, when the tool is to
    ///   go on.
    public static func parseOrExit(
        toolName: String,
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        environment: [String: String]? = nil,
        environmentPrefix: String? = nil,
        file: (any Storable)? = nil,
        fallbacks: [any Storable] = [],
        unknownKeys: UnknownKeys = .warn,
        otherVariables: Set<String> = [],
        configCommand: String? = "config",
        overview: String = "",
        commands: [String] = []
    ) -> Self {
        var standardError = StandardStream.error
        var standardOutput = StandardStream.output
        if arguments.first == CompletionScript.option {
            guard arguments.count == 2, let shell = CompletionShell(rawValue: arguments[1]) else {
                standardError.write("\(toolName): \(CompletionScript.option) takes one of: bash, zsh, fish\n")
                exit(SettingsCommand.ExitCode.usage.rawValue)
            }
            standardOutput.write(
                completionScript(for: shell, toolName: toolName, commands: commands, configCommand: configCommand))
            exit(standardOutput.failure == nil ? 0 : SettingsCommand.ExitCode.ioError.rawValue)
        }
        let parsed: Self
        do {
            parsed = try Self(
                toolName: toolName, arguments: arguments, environment: environment,
                environmentPrefix: environmentPrefix, file: file, fallbacks: fallbacks, unknownKeys: unknownKeys,
                otherVariables: otherVariables, configCommand: configCommand, messages: &standardError)
        } catch {
            standardError.write("\(error)\n")
            exit(error.exitCode.rawValue)
        }
        if let configCommand, parsed.arguments.first == configCommand {
            let command = SettingsCommand(parsed.settings, toolName: toolName, commandName: configCommand)
            exit(command.run(arguments: Array(parsed.arguments.dropFirst())).rawValue)
        }
        if parsed.helpRequested {
            standardOutput.write(helpText(toolName: toolName, environmentPrefix: environmentPrefix, overview: overview))
            exit(standardOutput.failure == nil ? 0 : SettingsCommand.ExitCode.ioError.rawValue)
        }
        return parsed
    }

    /// The warning for a secret given as an option: every user of the machine can read a
    /// process's arguments (`ps`, `/proc/PID/cmdline`), so it says how to give it instead.
    private static func visibleSecretWarning(
        _ setting: any AnyStoredSetting, _ commandLine: CommandLineStore, _ environment: EnvironmentStore
    ) -> StorageError {
        var message = "a secret given as an option can be read by every user of this machine in the process list (ps)"
        if let variable = environment.variableName(forKey: setting.key) {
            message += "; give it in a file named by \(variable)_FILE, or in \(variable), instead"
        }
        return StorageError(
            .insecurePermissions, key: setting.key,
            location: commandLine.describedOrigin(forKey: setting.key)
                ?? commandLine.fieldOverrides(forKey: setting.key).last?.origin,
            message: message)
    }

    /// `NOTES` for `notes`, `MY_TOOL` for `my-tool`.
    package static func defaultPrefix(for toolName: String) -> String {
        // An ASCII name, the usual one, maps byte by byte: no Unicode case mapping is needed.
        if toolName.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) {
            return String(
                decoding: toolName.utf8.map { byte in
                    switch byte {
                    case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - 0x20
                    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): byte
                    default: UInt8(ascii: "_")
                    }
                }, as: UTF8.self)
        }
        return String(toolName.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
    }
}

/// The problems that stop a run, and whether one concerns the arguments.
struct InputCheck {
    private(set) var problems: [StorageError] = []
    private var hasUsageProblem = false

    /// 64 when a problem concerns the arguments, else 65; `nil` without problems.
    var exitCode: SettingsCommand.ExitCode? {
        problems.isEmpty ? nil : hasUsageProblem ? .usage : .dataError
    }

    mutating func add(_ found: [StorageError], fromCommandLine: Bool) {
        problems += found
        if fromCommandLine, !found.isEmpty { hasUsageProblem = true }
    }

    /// For every setting, each one-run layer whose value (or field overrides) makes the value
    /// fail to read, checked from the lowest one-run layer up so each problem is blamed on the
    /// layer that brought it.
    mutating func addDecodingProblems(of settings: [any AnyStoredSetting], in store: LayeredStore) {
        let layers = store.layers
        let oneRun = layers.indices.filter { LayeredStore.isOneRunLayer(layers[$0]) }
        for setting in settings {
            let key = setting.key
            for index in oneRun.reversed() {
                let layer = layers[index]
                let fields = (layer as? any FieldOverridingStore)?.fieldOverrides(forKey: key) ?? []
                guard layer.value(forKey: key) != nil || !fields.isEmpty else { continue }
                // A problem the layers below already have (a bad value in the file under a
                // field override) is not this layer's.
                guard var problem = Self.decodingProblem(of: setting, over: Array(layers[index...]), store),
                    Self.decodingProblem(of: setting, over: Array(layers[(index + 1)...]), store) == nil
                else { continue }
                problem.location =
                    layer.value(forKey: key) != nil
                    ? layer.describedOrigin(forKey: key) : fields.last?.origin ?? layer.describedLocation
                add([problem], fromCommandLine: layer is CommandLineStore)
                break
            }
        }
    }

    /// Why the value `layers` give `setting` does not read, or `nil`.
    private static func decodingProblem(
        of setting: any AnyStoredSetting, over layers: [any Storable], _ store: LayeredStore
    ) -> StorageError? {
        let key = setting.key
        let merge = LayerMerge(layers: layers, declarations: store.declarations)
        guard let value = merge.value(forKey: key, layerValue: { layers[$0].value(forKey: key) }) else { return nil }
        return setting.decodingProblem(of: value)
    }
}
