import Foundation
import StoredSettings

// A thin main over Daybook.run, which tests drive in a child process.
// Problems the library reports while reading (a wrong type in the settings file) are warnings
// in daybook's own name; daybook goes on with the setting's default.
StorageErrorReporter.setHandler { problem in
    FileHandle.standardError.write(Data("daybook: warning: \(problem)\n".utf8))
}
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
