import Foundation
import StoredSettings
import StoredSettingsCommandLine
import TestHelpers

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `report-into-closed-error`: makes standard error a pipe nobody reads (as in
/// `tool 2>&1 | true` once the reader has gone), ignores `SIGPIPE` as the package's tools do,
/// and reports two errors through the default `StorageErrorReporter` handler. Prints
/// `reported` when both reports returned; a writer that traps on `EPIPE` kills the process
/// before that.
func reportIntoClosedErrorCommand() {
    guard let pipe = try? CloseOnExecPipe.make() else { fail("no pipe") }
    close(pipe.read)
    guard dup2(pipe.write, 2) == 2 else { fail("dup2: \(errno)") }
    close(pipe.write)
    signal(SIGPIPE, SIG_IGN)
    for key in ["first", "second"] {
        StorageErrorReporter.report(StorageError(.dataCorrupted, key: key, location: "settings.json", message: "test"))
    }
    say("reported")
}

/// The settings of `report-after-command-line`.
struct ReportingToolSettings: SettingsGroup {
    @Stored("count", default: 0) var count: Int
}

/// `report-after-command-line TOOL [handler]`: with standard error sent to standard output,
/// reports one error, reads settings with `CommandLineSettings(toolName: TOOL)`, and reports
/// another; with `handler`, a handler set first writes `handled <error>` instead.
func reportAfterCommandLineCommand(toolName: String, withHandler: Bool) {
    guard dup2(1, 2) == 2 else { fail("dup2: \(errno)") }
    if withHandler {
        StorageErrorReporter.setHandler { error in say("handled \(error)") }
    }
    StorageErrorReporter.report(StorageError(.typeMismatch, key: "before", message: "test"))
    var messages = ""
    do {
        _ = try CommandLineSettings<ReportingToolSettings>(
            toolName: toolName, arguments: [], environment: [:], file: EnvironmentStore(prefix: "X", environment: [:]),
            messages: &messages)
    } catch {
        fail("\(error)")
    }
    StorageErrorReporter.report(StorageError(.typeMismatch, key: "after", message: "test"))
}
