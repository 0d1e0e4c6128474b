import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// Did-you-mean hints count two swapped neighbouring letters as one edit.
@Suite(.timeLimit(TestScale.hangGuard))
struct TranspositionHintTests {
    @Test func aSwapOfNeighbouringLettersIsOneEdit() {
        #expect(editDistance(Array("jbos"), Array("jobs")) == 1)
        #expect(editDistance(Array("ab"), Array("ba")) == 1)
        #expect(editDistance(Array("ca"), Array("abc")) == 3)
        #expect(editDistance(Array("fromat"), Array("format")) == 1)
        #expect(editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(closestMatch(to: "jbos", among: ["jobs", "dryRun"]) == "jobs")
        #expect(closestMatch(to: "hsots", among: ["hosts", "autoReload"]) == "hosts")
    }

    @Test func anOptionWithSwappedLettersGetsAHint() throws {
        let file = try TemporaryFileStore()
        var messages = ""
        do {
            _ = try CommandLineSettings<EntryPointSettings>(
                toolName: "notes", arguments: ["--hsots", "a"], environment: [:], file: file,
                unknownKeys: .reject, messages: &messages)
            Issue.record("an unknown option was accepted")
        } catch {
            #expect(
                "\(error)" == "notes: command line: --hsots is not an option of any setting (did you mean '--hosts'?).")
        }
    }

    @Test func aFileKeyWithSwappedLettersGetsAHint() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.array([.string("a")]), forKey: "hsots")
        var messages = ""
        do {
            _ = try CommandLineSettings<EntryPointSettings>(
                toolName: "notes", arguments: [], environment: [:], file: file, unknownKeys: .reject,
                messages: &messages)
            Issue.record("an unknown key was accepted")
        } catch {
            #expect(
                "\(error)"
                    == "notes: Setting 'hsots' in file \(abbreviatingHome(file.url.path)): no declared setting uses this key (did you mean 'hosts'?)."
            )
        }
        #expect(file.value(forKey: "hsots") == .array([.string("a")]))
    }
}
