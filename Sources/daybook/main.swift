import Foundation

// A thin main over Daybook.run, which tests drive in a child process.
var output = StandardOutput(handle: .standardOutput)
var error = StandardOutput(handle: .standardError)
let status = Daybook.run(
    arguments: Array(CommandLine.arguments.dropFirst()),
    environment: ProcessInfo.processInfo.environment,
    output: &output,
    error: &error
)
exit(status)

/// A file handle as a `TextOutputStream`.
struct StandardOutput: TextOutputStream {
    let handle: FileHandle

    mutating func write(_ string: String) {
        if !string.isEmpty { handle.write(Data(string.utf8)) }
    }
}
