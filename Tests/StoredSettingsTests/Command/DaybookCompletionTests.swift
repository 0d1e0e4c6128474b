import Foundation
import Testing

/// `daybook --generate-completion-script SHELL`, loaded into the real shell and asked for
/// completions as the shell asks when Tab is pressed: bash through its `complete -F`
/// function, zsh through its completion function with `compadd` recording what is offered,
/// and fish through its own completion engine (`complete -C`).
@Suite(.timeLimit(.minutes(5)))
struct DaybookCompletionTests {
    /// A command line up to the cursor, and what completion must offer (and must not).
    struct Case: Sendable, CustomTestStringConvertible {
        var line: String
        var offers: [String]
        var omits: [String] = []
        var testDescription: String { "'\(line)'" }
    }

    static let cases = [
        Case(
            line: "daybook ",
            offers: [
                "--page-size", "--show-dates", "--no-show-dates", "--format", "--layout.wrap-column", "--set",
                "--help", "config", "write", "show", "follow", "status",
            ]),
        Case(line: "daybook --no-sh", offers: ["--no-show-dates"], omits: ["--show-dates", "--page-size"]),
        Case(line: "daybook --format ", offers: ["plain", "markdown"], omits: ["config"]),
        Case(
            line: "daybook --page-size 3 config ",
            offers: [
                "list", "get", "set", "unset", "reset", "path", "schema",
                "check",
            ], omits: ["write"]),
        Case(line: "daybook config get ", offers: ["pageSize", "format", "token", "--show-origin"], omits: ["list"]),
        Case(line: "daybook config set ", offers: ["pageSize", "format", "showDates"], omits: ["plain"]),
        Case(line: "daybook config set format ", offers: ["plain", "markdown"], omits: ["pageSize"]),
        Case(line: "daybook config set showDates ", offers: ["true", "false"]),
        Case(line: "daybook config schema --draft ", offers: ["7", "2020-12"]),
        Case(line: "daybook config schema --d", offers: ["--draft", "--declared-only"], omits: ["--draft V"]),
        Case(line: "daybook config unset pageSize ", offers: ["format"]),
        Case(line: "daybook --set ", offers: ["pageSize=", "format="]),
        Case(line: "daybook -- ", offers: [], omits: ["config", "--help"]),
        Case(line: "daybook --generate-completion-script ", offers: ["bash", "zsh", "fish"]),
    ]

    /// The completions `shell` offers for `line`, one per element.
    static func completions(_ shell: String, _ line: String) async throws -> [String] {
        let daybook = try TranscriptTests.daybookPath()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let generated = try await ProgramRun.run(daybook, ["--generate-completion-script", shell])
        #expect(generated.exitCode == 0, "\(generated.errors)")
        let script = folder.appendingPathComponent("daybook.\(shell)")
        try Data(generated.output.utf8).write(to: script)
        var words = line.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        let current = words.last ?? ""
        let quotedWords = words.map { "'\($0)'" }.joined(separator: " ")
        let run: ProgramRun
        switch shell {
        case "bash":
            run = try await ProgramRun.run(
                "/bin/bash",
                [
                    "--noprofile", "--norc", "-c",
                    """
                    source '\(script.path)'
                    COMP_WORDS=(\(quotedWords)); COMP_CWORD=\(words.count - 1)
                    COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
                    _daybook daybook '\(current)' '\(words.dropLast().last ?? "")'
                    printf '%s\\n' "${COMPREPLY[@]}"
                    """,
                ])
        case "zsh":
            words.removeLast()
            // zsh's compadd offers only the words that start with PREFIX; the stand-in does the same.
            run = try await ProgramRun.run(
                try Self.program("zsh"),
                [
                    "-f", "-c",
                    """
                    compadd() { [[ $1 == -S ]] && shift 2; [[ $1 == -- ]] && shift; local word; for word in "$@"; do [[ $word == "$PREFIX"* ]] && print -r -- $word; done; return 0; }
                    _files() { print -r -- '<files>'; }
                    compdef() { : }
                    source '\(script.path)'
                    words=(\(quotedWords)); CURRENT=\(words.count + 1); PREFIX='\(current)'
                    _daybook
                    """,
                ])
        default:
            // fish keeps its own files under the home and XDG folders: the scratch folder's.
            let home = folder.path
            run = try await ProgramRun.run(
                try Self.program("fish"),
                ["--no-config", "-c", "source '\(script.path)'; complete -C'\(line)'"],
                environment: [
                    "HOME": home, "XDG_CONFIG_HOME": home + "/config", "XDG_DATA_HOME": home + "/data",
                    "XDG_CACHE_HOME": home + "/cache", "XDG_RUNTIME_DIR": home + "/runtime",
                ])
        }
        #expect(run.exitCode == 0, "\(shell): \(run.errors)")
        #expect(run.errors == "", "\(shell) wrote errors: \(run.errors)")
        // fish prints `word<TAB>description`; the word is what matters.
        return run.output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
    }

    /// The path of `name` from Debian's package, installed by `.ci/run`.
    static func program(_ name: String) throws -> String {
        let path = "/usr/bin/\(name)"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ShellMissing(description: "\(name) is not installed: apt-get install -y \(name)")
        }
        return path
    }

    struct ShellMissing: Error, CustomStringConvertible { var description: String }

    @Test(arguments: ["bash", "zsh", "fish"], cases)
    func theShellOffersWhatTheDeclarationsAllow(_ shell: String, _ example: Case) async throws {
        let offered = try await Self.completions(shell, example.line)
        for word in example.offers {
            #expect(offered.contains(word), "\(shell), \(example.line): '\(word)' not among \(offered)")
        }
        for word in example.omits {
            #expect(!offered.contains(word), "\(shell), \(example.line): '\(word)' offered")
        }
        if example.offers.isEmpty { #expect(offered.isEmpty, "\(shell): \(offered)") }
    }

    @Test func aShellTheScriptsDoNotKnowIsAUsageError() async throws {
        let run = try await ProgramRun.run(try TranscriptTests.daybookPath(), ["--generate-completion-script", "tcsh"])
        #expect(run.exitCode == 64)
        #expect(run.errors == "daybook: --generate-completion-script takes one of: bash, zsh, fish\n")
    }
}
