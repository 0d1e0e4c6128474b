import Foundation
import StoredSettings
import StoredSettingsCommandLine

// A thin main over Daybook.run, which tests drive in a child process.
// A closed standard output (`daybook status | true`) is an I/O error with status 74, not death
// by SIGPIPE: the signal is ignored, so the write fails with EPIPE, which the stream keeps.
signal(SIGPIPE, SIG_IGN)
// Problems the library reports (a wrong type in the settings file) are warnings in daybook's own
// name, as CommandLineSettings makes them once it has read the settings; the handler also names
// those reported before that, while the fleet's cluster is opened. daybook goes on with the
// setting's default.
StorageErrorReporter.setHandler { problem in
    var error = StandardStream.error
    error.write("daybook: warning: \(problem)\n")
}
var output = StandardStream.output
var error = StandardStream.error
var status = Daybook.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: nil,
    output: &output,
    error: &error
)
// Output that did not arrive is a failure, whatever the command did.
if status == .success, let failure = output.failure {
    error.write("daybook: \(failure).\n")
    status = .ioError
}
exit(status.rawValue)
