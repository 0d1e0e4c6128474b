// The `stored` command-line tool: a thin main over StoredCLI.run, which holds all the logic.
import Foundation
import StoredCLI
import StoredSettings
import StoredSettingsCommandLine

// A closed standard output (`stored help | true`) is an I/O error with status 74, not death
// by SIGPIPE: the signal is ignored, so the write fails with EPIPE and StandardStream keeps it.
signal(SIGPIPE, SIG_IGN)
var output = StandardStream.output
var errors = StandardStream.error
let code = StoredCLI.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    input: {
        try FileSystem.readToEnd(
            descriptor: 0, maximumSize: FileStore.Options.defaultMaximumFileSize, path: "standard input")
    },
    output: &output,
    error: &errors,
    environment: EnvironmentStore.processVariables()
)
exit(StoredCLI.exitCode(code, output: output, error: &errors).rawValue)
