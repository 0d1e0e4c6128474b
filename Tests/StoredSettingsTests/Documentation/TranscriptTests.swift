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
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("DAYBOOK_") }
        environment["HOME"] = home.path
        environment["XDG_CONFIG_HOME"] = home.appendingPathComponent(".config").path
        environment["XDG_DATA_HOME"] = home.appendingPathComponent(".local/share").path
        let daybook = try Self.daybookPath()
        let expand = { (word: String) in word.hasPrefix("~/") ? home.path + word.dropFirst() : word }

        var lastStatus: Int32 = 0
        for step in block.steps {
            let place = "\(block.file), transcript at line \(block.line): '$ \(step.command)'"
            var words = try TranscriptBlock.words(step.command)
            var variables = environment
            while let first = words.first, let equals = first.firstIndex(of: "="), Self.isName(first[..<equals]) {
                variables[String(first[..<equals])] = expand(String(first[first.index(after: equals)...]))
                words.removeFirst()
            }
            words = words.map(expand)
            let printed: String
            if words.first == "daybook" {
                let run = try await runCombiningOutput(daybook, Array(words.dropFirst()), environment: variables)
                printed = run.output
                lastStatus = run.status
            } else if words == ["echo", "$?"] {
                printed = "\(lastStatus)\n"
            } else if words.count >= 3, words.first == "echo", words[words.count - 2] == ">" {
                let text = words.dropFirst().dropLast(2).joined(separator: " ") + "\n"
                let target = words[words.count - 1]
                let file =
                    target.hasPrefix("/") ? URL(fileURLWithPath: target) : home.appendingPathComponent(target)
                try FileManager.default.createDirectory(
                    at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
                printed = ""
                lastStatus = 0
            } else {
                Issue.record("\(place): a transcript runs only daybook, 'echo $?' and 'echo TEXT > FILE'")
                return
            }
            var actual = TranscriptBlock.normalized(printed).components(separatedBy: "\n")
            if actual.last == "" { actual.removeLast() }
            let expected = step.expected.map(TranscriptBlock.normalized)
            guard actual == expected else {
                let diff = TranscriptBlock.diff(expected: expected, actual: actual)
                Issue.record("\(place) printed other lines (- shown, + printed):\n\(diff)")
                return
            }
        }
    }

    @Test func splitsWordsAsAShellDoes() throws {
        #expect(
            try TranscriptBlock.words(#"A=1 daybook write 'a b' "c \"d\"" e\ f"#) == [
                "A=1", "daybook", "write", "a b", #"c "d""#, "e f",
            ])
        #expect(try TranscriptBlock.words("  daybook   config  ") == ["daybook", "config"])
        #expect(try TranscriptBlock.words("daybook ''") == ["daybook", ""])
        #expect(throws: TranscriptBlock.Malformed.self) { try TranscriptBlock.words("daybook 'open") }
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

    /// Whether `text` is an environment variable's name: a letter or `_`, then letters, digits
    /// and `_`.
    static func isName(_ text: Substring) -> Bool {
        guard let first = text.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return text.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }
}
