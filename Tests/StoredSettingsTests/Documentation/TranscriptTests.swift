import Foundation
import StoredSettings
import Testing

/// Runs the `daybook` transcripts of the README and the DocC articles with the built tool and
/// compares what it prints with what the documentation shows (see ``TranscriptBlock`` for
/// how a block is written and run). Adding a block needs nothing but writing it after the
/// marker line.
@Suite(.timeLimit(TestScale.hangGuard))
struct TranscriptTests {
    @Test func readmeAndTheCommandLineArticleHaveTranscriptsToRun() throws {
        let files = Set(try TranscriptBlock.all().map(\.file))
        #expect(files.contains("README.md"))
        #expect(files.contains("Sources/StoredSettingsCommandLine/Documentation.docc/CommandLineTools.md"))
    }

    @Test(arguments: try TranscriptBlock.all())
    func transcriptPrintsWhatTheDocumentationShows(_ block: TranscriptBlock) async throws {
        let folder = try ScratchFolder()
        let home = folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let daybookFolder = URL(fileURLWithPath: try Self.daybookPath()).deletingLastPathComponent().path
        // What a person has after `export HOME=$(mktemp -d); cd`: no DAYBOOK_* or XDG_*
        // variables, no start-up files, the built daybook first on PATH.
        var environment = ProcessInfo.processInfo.environment.filter { name, _ in
            !name.hasPrefix("DAYBOOK_") && !name.hasPrefix("XDG_") && !["ENV", "BASH_ENV", "CDPATH"].contains(name)
        }
        environment["HOME"] = home.path
        environment["PATH"] = daybookFolder + ":/usr/bin:/bin"
        let run = try await runCombiningOutput(
            "/bin/bash", ["--noprofile", "--norc", "-c", TranscriptBlock.script(of: block.steps)],
            environment: environment)
        let printed = run.output.components(separatedBy: TranscriptBlock.stepEnd)
        #expect(printed.last == "", "\(block.file), transcript at line \(block.line): the script stopped early")
        for (index, step) in block.steps.enumerated() {
            let place = "\(block.file), transcript at line \(block.line): '$ \(step.command)'"
            guard index < printed.count else {
                Issue.record("\(place) did not run")
                return
            }
            var actual = TranscriptBlock.normalized(printed[index]).components(separatedBy: "\n")
            if actual.last == "" { actual.removeLast() }
            let expected = step.expected.map(TranscriptBlock.normalized)
            guard actual == expected else {
                let diff = TranscriptBlock.diff(expected: expected, actual: actual)
                Issue.record("\(place) printed other lines (- shown, + printed):\n\(diff)")
                return
            }
        }
    }

    @Test func aScriptEndsEachStepWithAMarkThatKeepsTheExitStatus() async throws {
        let script = TranscriptBlock.script(of: [
            .init(command: "(exit 3)", expected: []), .init(command: "echo $?", expected: ["3"]),
        ])
        let folder = try ScratchFolder()
        let run = try await runCombiningOutput(
            "/bin/bash", ["--noprofile", "--norc", "-c", script], environment: ["HOME": folder.path])
        #expect(run.output == TranscriptBlock.stepEnd + "3\n" + TranscriptBlock.stepEnd)
    }

    @Test func findsOnlyMarkedBlocks() throws {
        let text = """
            ```
            $ daybook unmarked
            ```
            \(TranscriptBlock.marker)
            ```
            $ daybook config get pageSize
            10
            $ daybook
            two
            lines
            ```
            """
        let blocks = try TranscriptBlock.blocks(in: text, file: "X.md")
        #expect(blocks.count == 1)
        #expect(blocks.first?.line == 5)
        #expect(blocks.first?.steps.map(\.command) == ["daybook config get pageSize", "daybook"])
        #expect(blocks.first?.steps.map(\.expected) == [["10"], ["two", "lines"]])
        #expect(throws: TranscriptBlock.Malformed.self) {
            try TranscriptBlock.blocks(in: "\(TranscriptBlock.marker)\ntext\n", file: "X.md")
        }
    }

    @Test func aTimeStandsForAnyOtherTime() {
        #expect(
            TranscriptBlock.normalized("lastEntry = 2026-11-30T02:38:15Z, 2001-01-01T00:00:00.25Z")
                == "lastEntry = <time>, <time>")
        #expect(TranscriptBlock.normalized("2026-11-30") == "2026-11-30")
    }

    @Test func showsAMismatchAsADiff() {
        #expect(
            TranscriptBlock.diff(expected: ["a", "b", "c"], actual: ["a", "x", "c", "d"])
                == " a\n-b\n+x\n c\n+d")
    }

    // MARK: - Helpers

    /// The built `daybook`, next to `stored-test-helper`.
    static func daybookPath() throws -> String {
        guard let helper = ChildProcess.helperPath else { throw HelperMissing() }
        let path = URL(fileURLWithPath: helper).deletingLastPathComponent().appendingPathComponent("daybook").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TranscriptBlock.Malformed(
                description: "daybook is not built at \(path): run 'swift build --build-tests'")
        }
        return path
    }
}
