// The `stored` command-line tool: a thin main over StoredCLI.run, which holds all the logic.
import Foundation
import StoredCLI

var output = StandardStream.output
var errors = StandardStream.error
let code = StoredCLI.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    input: { try FileHandle.standardInput.readToEnd() ?? Data() },
    output: &output,
    error: &errors
)
exit(code.rawValue)
