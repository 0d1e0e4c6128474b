import Foundation
import StoredSettings

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
