import Foundation
import StoredSettings
import Testing

/// The default error handler writes to standard error with `write(2)`: a closed pipe loses the
/// line but never kills the process.
@Suite(.timeLimit(TestScale.hangGuard))
struct DefaultReporterOutputTests {
    @Test func reportingIntoAClosedStandardErrorDoesNotTrap() async throws {
        let child = try ChildProcess.launch(["report-into-closed-error"])
        let (exitCode, output) = await child.finish()
        #expect(exitCode == 0, "stored-test-helper ended without exit status 0: \(output)")
        #expect(output == "reported\n")
    }

    @Test func aToolReadingItsSettingsWithCommandLineSettingsReportsInItsOwnName() async throws {
        let output = try await ChildProcess.run(["report-after-command-line", "notes"])
        #expect(
            output == "StoredSettings: Setting 'before': test.\n"
                + "notes: warning: Setting 'after': test.\n")
    }

    @Test func aHandlerTheToolSetStaysAfterCommandLineSettings() async throws {
        let output = try await ChildProcess.run(["report-after-command-line", "notes", "handler"])
        #expect(
            output == "handled Setting 'before': test.\n"
                + "handled Setting 'after': test.\n")
    }
}
