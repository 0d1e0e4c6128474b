import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

// The code of the "Configuration for command-line tools" article, so the compiler checks it,
// and its transcript, run in process. Keep the two in step.

enum NotesKey: String, StorageKey {
    case editor, wrapColumn, theme, autoReload, tags, syncToken, lastSync
}

enum NotesTheme: String, CaseIterable, Sendable, StoredValueConvertible {
    case plain, color
}

struct NotesSettings: SettingsGroup {
    @Stored(NotesKey.editor, default: "vi", help: "The editor that opens notes.")
    var editor: String
    @Stored(NotesKey.wrapColumn, default: 80, help: "Where long lines wrap.")
    var wrapColumn: Int
    @Stored(NotesKey.theme, default: .plain, help: "How notes are printed.")
    var theme: NotesTheme
    @Stored(NotesKey.autoReload, default: true, help: "Reload notes changed on disk.")
    var autoReload: Bool
    @Stored(NotesKey.tags, default: [], help: "Tags for new notes.")
    var tags: [String]
    @Stored(NotesKey.syncToken, help: "Token for the sync service.", secret: true)
    var syncToken: String?
    @Stored(NotesKey.lastSync, help: "When the notes were last synced.")
    var lastSync: Date?
}

let notesOverview = """
    OVERVIEW: Open a note in your editor.

    USAGE: notes [options] [config <subcommand> | <note>]
    """

func runNotes(
    arguments: [String],
    environment: [String: String]?,
    file: FileStore,
    output: inout some TextOutputStream,
    error: inout some TextOutputStream
) -> SettingsCommand.ExitCode {
    let notes: CommandLineSettings<NotesSettings>
    do {
        notes = try CommandLineSettings(
            toolName: "notes", arguments: arguments, environment: environment, file: file, messages: &error)
    } catch let problem {
        print(problem, to: &error)
        return problem.exitCode
    }
    let settings = notes.settings

    let rest = notes.arguments
    if rest.first == "config" {
        return SettingsCommand(settings, toolName: "notes")
            .run(arguments: Array(rest.dropFirst()), output: &output, error: &error)
    }
    if notes.helpRequested {
        output.write(CommandLineSettings<NotesSettings>.helpText(toolName: "notes", overview: notesOverview))
        return .success
    }

    print("Opening \(rest.first ?? "today.md") in \(settings.editor), wrapped at \(settings.wrapColumn).", to: &output)
    return .success
}

// The article's shortest main.swift, in a function that is compiled but never called.
func notesShortMain() {
    let notes = CommandLineSettings<NotesSettings>.parseOrExit(toolName: "notes")
    print("Opening \(notes.arguments.first ?? "today.md") in \(notes.settings.editor).")
}

// The article's main.swift, in a function that is compiled but never called.
func notesMain() -> Never {
    signal(SIGPIPE, SIG_IGN) // a closed pipe is then a write error, not the end of the process
    var standardOutput = StandardStream.output
    var standardError = StandardStream.error
    do {
        let file = try FileStore(application: "notes") // $XDG_CONFIG_HOME/notes/settings.json
        exit(
            runNotes(
                arguments: Array(CommandLine.arguments.dropFirst()),
                environment: ProcessInfo.processInfo.environment,
                file: file, output: &standardOutput, error: &standardError
            ).rawValue)
    } catch {
        print("notes: \(error)", to: &standardError)
        exit(SettingsCommand.ExitCode.ioError.rawValue)
    }
}

struct CommandLineToolsArticleExample {
    @Test func theArticleTranscriptHolds() throws {
        let file = try TemporaryFileStore()
        func notes(_ arguments: String..., environment: [String: String] = [:]) -> (
            SettingsCommand.ExitCode, String, String
        ) {
            var output = ""
            var error = ""
            let status = runNotes(
                arguments: arguments, environment: environment, file: file.fileStore, output: &output, error: &error)
            return (status, output, error)
        }
        #expect(notes("config", "set", "wrapColumn", "100") == (0, "", ""))
        #expect(
            notes("config", "set", "wrapColumn", "wide")
                == (65, "", "notes config: wrapColumn expects an Int (a whole number), got \"wide\"\n"))
        let (status, output, error) = notes(
            "--theme", "color", "--tags", "work", "--tags", "urgent", "config", "list", "--show-origin",
            environment: ["NOTES_EDITOR": "nano"])
        #expect(status == 0)
        #expect(error == "")
        #expect(
            output == """
                KEY         TYPE        VALUE              ORIGIN
                editor      String      nano               environment variable NOTES_EDITOR
                wrapColumn  Int         100                file \(abbreviatingHome(file.url.path))
                theme       NotesTheme  color              --theme on the command line
                autoReload  Bool        true               default
                tags        [String]    ["work","urgent"]  --tags on the command line
                syncToken   String?     (not set)          default
                lastSync    Date?       (not set)          default

                """)
        #expect(
            notes("today.md", environment: ["NOTES_EDITOR": "nano"]).1 == "Opening today.md in nano, wrapped at 100.\n")
    }

    @Test func theArticlesHelpTranscriptHolds() throws {
        let file = try TemporaryFileStore()
        for flag in ["--help", "-h"] {
            var output = ""
            var error = ""
            let status = runNotes(
                arguments: [flag], environment: [:], file: file.fileStore, output: &output, error: &error)
            #expect(status == 0)
            #expect(error == "")
            #expect(
                output == """
                    OVERVIEW: Open a note in your editor.

                    USAGE: notes [options] [config <subcommand> | <note>]

                    SETTINGS:
                      --set KEY=VALUE         Any setting, by its key.
                      --editor TEXT           The editor that opens notes.
                                              String; default: vi
                                              Environment: NOTES_EDITOR
                      --wrap-column N         Where long lines wrap.
                                              Int (a whole number); default: 80
                                              Environment: NOTES_WRAP_COLUMN
                      --theme plain|color     How notes are printed.
                                              NotesTheme (one of: plain, color); default: plain
                                              Environment: NOTES_THEME
                      --[no-]auto-reload      Reload notes changed on disk.
                                              Bool; default: true
                                              Environment: NOTES_AUTO_RELOAD
                      --tags TEXT...          Tags for new notes.
                                              [String] (items separated by commas, or the option
                                              repeated); default: []
                                              Environment: NOTES_TAGS
                      --sync-token TEXT       Token for the sync service.
                                              String?; secret, its value is never shown
                                              Environment: NOTES_SYNC_TOKEN, or
                                              NOTES_SYNC_TOKEN_FILE naming a file that holds it
                      --last-sync DATE        When the notes were last synced.
                                              Date? (an ISO 8601 date such as 2025-01-31T09:30:00Z)
                                              Environment: NOTES_LAST_SYNC

                    Options are for this run only; they win over environment variables, which win
                    over the settings file.

                    """)
        }
    }

    @Test func badInputStopsTheRun() throws {
        let file = try TemporaryFileStore()
        func notes(_ arguments: String..., environment: [String: String] = [:]) -> (
            SettingsCommand.ExitCode, String, String
        ) {
            var output = ""
            var error = ""
            let status = runNotes(
                arguments: arguments, environment: environment, file: file.fileStore, output: &output, error: &error)
            return (status, output, error)
        }
        #expect(
            notes("--wrap-column", "wide", "today.md")
                == (
                    64, "",
                    "notes: Setting 'wrapColumn' in --wrap-column on the command line: expected Int (a whole number), found string \"wide\".\n"
                ))
        #expect(
            notes("today.md", environment: ["NOTES_WRAP_COLUMN": "wide"])
                == (
                    65, "",
                    "notes: Setting 'wrapColumn' in environment variable NOTES_WRAP_COLUMN: expected Int (a whole number), found string \"wide\".\n"
                ))
        #expect(
            notes("--auto-reload", "false", "today.md")
                == (
                    64, "",
                    "notes: Setting 'autoReload' in --auto-reload on the command line: --auto-reload is a flag and takes no separate value 'false'; write --auto-reload=false or --no-auto-reload.\n"
                ))
        #expect(notes("--auto-reload=false", "today.md").0 == 0)
        #expect(notes("--no-auto-reload", "today.md").0 == 0)
        #expect(file.keys().isEmpty)
    }

    @Test func aMalformedEnvironmentValueIsReportedNotMasked() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.int(100), forKey: "wrapColumn")
        let store = LayeredStore(
            [EnvironmentStore(prefix: "NOTES", environment: ["NOTES_WRAP_COLUMN": "wide"]), file], writingTo: file)
        let reports = CapturedReports()
        reports.capture { #expect(NotesSettings(store: store).wrapColumn == 80) }
        #expect(
            reports.all.map(\.description) == [
                "Setting 'wrapColumn' in environment variable NOTES_WRAP_COLUMN: expected Int (a whole number), found string \"wide\"."
            ])
    }
}
