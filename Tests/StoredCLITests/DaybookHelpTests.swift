import Foundation
import Testing

/// daybook's `--help`: its own overview, commands and options, then the settings section the
/// library writes from `DaybookSettings`.
@Suite(.timeLimit(.hangGuard))
struct DaybookHelpTests {
    @Test func helpListsTheCommandsThenEverySettingFromItsDeclaration() throws {
        let sandbox = try DaybookTests.Sandbox()
        let run = try sandbox.run("--help")
        #expect(run.status == 0)
        #expect(run.error == "")
        #expect(
            run.output == """
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

                SETTINGS:
                  --set KEY=VALUE         Any setting, by its key.
                  --[no-]show-dates       Print the date in front of each entry.
                                          Bool; default: true
                                          Environment: DAYBOOK_SHOW_DATES
                  --page-size N           How many entries 'daybook show' prints.
                                          Int (a whole number); default: 10
                                          Environment: DAYBOOK_PAGE_SIZE
                  --format plain|markdown
                                          How entries are printed.
                                          EntryFormat (one of: plain, markdown); default: plain
                                          Environment: DAYBOOK_FORMAT
                  --last-entry DATE       When the last entry was written.
                                          Date? (an ISO 8601 date such as 2025-01-31T09:30:00Z)
                                          Environment: DAYBOOK_LAST_ENTRY
                  --layout JSON           Wrap column and indent of entries.
                                          Layout (a JSON object); default:
                                          {"indent":2,"wrapColumn":72}
                                          Environment: DAYBOOK_LAYOUT
                  --layout.indent N       One field of layout; the others stay.
                                          Environment: DAYBOOK_LAYOUT_INDENT
                  --layout.wrap-column N  One field of layout; the others stay.
                                          Environment: DAYBOOK_LAYOUT_WRAP_COLUMN
                  --launch-count N        How many times daybook has run.
                                          Int (a whole number); default: 0
                                          Environment: DAYBOOK_LAUNCH_COUNT
                  --tags TEXT...          Tags added to new entries.
                                          [String] (items separated by commas, or the option
                                          repeated); default: []
                                          Environment: DAYBOOK_TAGS
                  --token TEXT            Token for syncing the journal; best given as
                                          DAYBOOK_TOKEN_FILE.
                                          String?; secret, its value is never shown
                                          Environment: DAYBOOK_TOKEN, or DAYBOOK_TOKEN_FILE
                                          naming a file that holds it

                Options are for this run only; they win over environment variables, which win
                over the settings file.

                """)
        #expect(run.output.split(separator: "\n").allSatisfy { $0.count <= 80 })
    }
}
