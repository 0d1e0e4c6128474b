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
}
