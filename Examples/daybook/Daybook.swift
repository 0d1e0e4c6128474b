import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsEtcd

/// The daybook tool: a small journal that keeps its settings with StoredSettings.
///
/// Settings come from, highest first: options on the command line (`--page-size 3`,
/// `--no-show-dates`, `--set format=markdown`), `DAYBOOK_*` environment variables, the settings
/// file (`$XDG_CONFIG_HOME/daybook/settings.json`), and the defaults in ``DaybookSettings``.
enum Daybook {
    /// What `--help` prints: daybook's own overview, commands and options, then the settings
    /// section written from ``DaybookSettings``.
    static let help = CommandLineSettings<DaybookSettings>.helpText(
        toolName: "daybook",
        overview: """
            OVERVIEW: A tiny journal for the terminal.

            USAGE: daybook [options] [<command>]

            COMMANDS:
              status           Show the settings and how often daybook has run (default).
              write TEXT...    Add an entry to the journal.
              show             Print the latest entries.
              follow           Print each settings change; re-read the file on SIGHUP.
              config ...       Show and change the settings ('daybook config --help').

            OPTIONS:
              --strict                Stop on settings, variables and options no setting
                                      uses.
              --generate-completion-script bash|zsh|fish
                                      Print a completion script for the shell.
              -h, --help              Show this help.
            """)

    /// The commands daybook runs besides `config`, for completion scripts.
    static let commands = ["status", "write", "show", "follow"]

    /// Runs daybook and returns its exit status. `environment`: the variables to read; `nil` for
    /// the process's, read from their bytes by the library's rule (a value that is not UTF-8
    /// is an error naming its variable, never text with U+FFFD in place of the bytes).
    static func run(
        arguments: [String],
        environment: [String: String]?,
        output: inout some TextOutputStream,
        error: inout some TextOutputStream
    ) -> SettingsCommand.ExitCode {
        // A completion script depends on the declarations only: no settings are read for it.
        if arguments.first == "--generate-completion-script" {
            guard arguments.count == 2, let shell = CompletionShell(rawValue: arguments[1]) else {
                error.write("daybook: --generate-completion-script takes one of: bash, zsh, fish\n")
                return .usage
            }
            output.write(
                CommandLineSettings<DaybookSettings>.completionScript(
                    for: shell, toolName: "daybook", commands: commands))
            return .success
        }
        let variables: [String: String]
        if let environment {
            variables = environment
        } else {
            let process = ProcessEnvironment.read()
            // The folders daybook names itself: a path that cannot be spelt stops the run.
            if let name = ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "HOME"].first(where: process.notUTF8.contains) {
                error.write("daybook: environment variable \(name): the value is not valid UTF-8.\n")
                return .dataError
            }
            variables = process.text
        }
        // `--strict` (before `--`) is daybook's own: unknown keys then stop the run.
        var arguments = arguments
        let strict = arguments.prefix { $0 != "--" }.contains("--strict")
        if strict, let index = arguments.firstIndex(of: "--strict") { arguments.remove(at: index) }
        let daybookArguments = arguments
        // A DAYBOOK_ETCD that is no etcd address is bad input (65); a cluster that does not
        // answer is an I/O error (74), unless the fleet values cached last time serve (a warning).
        let fleetConfiguration: EtcdStore.Configuration?
        do {
            fleetConfiguration = try DaybookFleet.configuration(environment: variables)
        } catch let problem {
            // A bad timing names its own variable; a bad address is DAYBOOK_ETCD's.
            let named = (problem as? StorageError)?.location?.hasPrefix("environment variable") == true
            error.write("daybook: \(named ? "" : "environment variable \(DaybookFleet.variable): ")\(problem)\n")
            return .dataError
        }
        let fleet: [any Storable]
        do {
            fleet = try DaybookFleet.layers(configuration: fleetConfiguration)
        } catch let problem {
            error.write("daybook: \(problem)\n")
            return .ioError
        }
        switch run(
            arguments: arguments, strict: strict, environment: environment, variables: variables, fleet: fleet,
            &output, &error)
        {
        case .finished(let status):
            return status
        case .follow(let rest):
            // The settings read to find the command, and their file's watch, are gone by now:
            // only follow's own reading (on SIGHUP) reports a file that does not parse.
            return DaybookFollow.run(
                arguments: rest, daybookArguments: daybookArguments, environment: environment, fleet: fleet,
                output: &output, error: &error)
        }
    }

    /// How a run of ``run(arguments:strict:environment:variables:fleet:_:_:)`` ended: with a status, or
    /// with `follow` to start (and the arguments after it).
    enum Outcome {
        case finished(SettingsCommand.ExitCode)
        case follow([String])
    }

    /// Reads the settings and runs every command but `follow`; `environment` goes to the
    /// library as given (`nil`: the process's), `variables` are the ones daybook reads itself.
    private static func run(
        arguments: [String], strict: Bool, environment: [String: String]?, variables: [String: String],
        fleet: [any Storable],
        _ output: inout some TextOutputStream, _ error: inout some TextOutputStream
    ) -> Outcome {
        // Options, then DAYBOOK_* variables, then the settings file, then the fleet's defaults;
        // a bad option (64) or variable (65) stops the run here, warnings are printed once.
        var arguments = arguments
        let daybook: CommandLineSettings<DaybookSettings>
        do {
            daybook = try CommandLineSettings(
                toolName: "daybook", arguments: arguments, environment: environment, fallbacks: fleet,
                unknownKeys: strict ? .reject : .warn, otherVariables: DaybookFleet.variables, messages: &error)
        } catch let problem {
            error.write("\(problem)\n")
            return .finished(problem.exitCode)
        }
        let settings = daybook.settings

        arguments = daybook.arguments
        // `--` only ends the options: what follows is taken as it is (`daybook write -- --text`).
        let terminator = arguments.firstIndex(of: "--")
        if let terminator { arguments.remove(at: terminator) }
        let command = arguments.isEmpty ? "status" : arguments.removeFirst()
        if command == "follow" { return .follow(arguments) }
        if command == "config" {
            return .finished(
                SettingsCommand(settings, toolName: "daybook").run(arguments: arguments, output: &output, error: &error)
            )
        }
        if command == "help" || daybook.helpRequested {
            output.write(help)
            return .finished(0)
        }
        // Only a run that does something counts as a launch.
        switch command {
        case "write":
            guard !arguments.joined().isEmpty else {
                error.write("daybook: write needs the text of the entry.\n")
                return .finished(.usage)
            }
        case "status", "show":
            if let extra = arguments.first {
                error.write("daybook: \(command) takes no arguments, got '\(extra)'. See 'daybook --help'.\n")
                return .finished(.usage)
            }
        default:
            let kind = command.hasPrefix("-") ? "option" : "command"
            // Only the option's name: a value attached to it (`--tokn=…`) may be a secret.
            let name = kind == "option" ? String(command.prefix { $0 != "=" }) : command
            error.write("daybook: unknown \(kind) '\(name)'. See 'daybook --help'.\n")
            return .finished(.usage)
        }

        // Count this launch, atomically even when several daybooks start at once.
        do {
            try settings.$launchCount.update { $0 += 1 }
        } catch let problem {
            error.write("daybook: could not count this launch: \(problem)\n")
        }

        switch command {
        case "write":
            return .finished(write(arguments.joined(separator: " "), settings, variables, error: &error))
        case "show":
            return .finished(show(settings, variables, output: &output, error: &error))
        default:
            return .finished(status(settings, output: &output))
        }
    }

    static func status(_ settings: DaybookSettings, output: inout some TextOutputStream) -> SettingsCommand.ExitCode {
        let count = settings.launchCount
        output.write("daybook has been launched \(count) \(count == 1 ? "time" : "times").\n")
        output.write("showDates = \(settings.showDates)\n")
        output.write("pageSize = \(settings.pageSize)\n")
        output.write("format = \(settings.format.rawValue)\n")
        output.write("lastEntry = \(settings.lastEntry.map { Date.ISO8601FormatStyle().format($0) } ?? "never")\n")
        output.write("layout = wrap at \(settings.layout.wrapColumn), indent \(settings.layout.indent)\n")
        return 0
    }

    static func write(
        _ text: String, _ settings: DaybookSettings, _ environment: [String: String],
        error: inout some TextOutputStream
    ) -> SettingsCommand.ExitCode {
        guard !text.isEmpty else {
            error.write("daybook: write needs the text of the entry.\n")
            return .usage
        }
        // Whole seconds, as the journal writes them.
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        do {
            try Journal(environment: environment).append(.init(date: now, text: text))
            try settings.$lastEntry.save(now)
        } catch let problem {
            error.write("daybook: \(problem)\n")
            return .ioError
        }
        return 0
    }

    static func show(
        _ settings: DaybookSettings, _ environment: [String: String],
        output: inout some TextOutputStream, error: inout some TextOutputStream
    ) -> SettingsCommand.ExitCode {
        let entries: [Journal.Entry]
        do {
            entries = try Journal(environment: environment).entries()
        } catch let problem {
            error.write("daybook: \(problem)\n")
            return .ioError
        }
        let layout = settings.layout
        let indent = String(repeating: " ", count: max(0, min(layout.indent, 40)))
        // Any Int can come from the settings: clamp before the arithmetic, which would
        // otherwise overflow at Int.min.
        let width = max(10, min(max(layout.wrapColumn, 0), 10_000) - indent.count)
        for entry in entries.suffix(max(0, settings.pageSize)) {
            let date = Date.ISO8601FormatStyle().format(entry.date)
            switch settings.format {
            case .plain:
                if settings.showDates { output.write("\(date)\n") }
                for line in wrap(entry.text, width: width) {
                    output.write("\(indent)\(line)\n")
                }
            case .markdown:
                output.write(settings.showDates ? "- **\(date)** \(entry.text)\n" : "- \(entry.text)\n")
            }
        }
        return 0
    }

    /// `text` split into lines of at most `width` characters, at spaces where possible.
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
