import StoredSettings
import StoredSettingsCommandLine

/// A failed command: the exit code and the one line for standard error.
package struct CommandFailure: Error {
    package var exitCode: ExitCode
    /// The line without its newline: `stored: Setting 'count' in ./demo.json: …`.
    package var line: String

    init(_ exitCode: ExitCode, _ line: String) {
        self.exitCode = exitCode
        self.line = line
    }

    /// The failure for a ``StorageError``, with the exit code its code maps to.
    init(_ error: StorageError) {
        self.init(Self.exitCode(for: error.code), "stored: \(error.description)")
    }

    /// `sysexits` for a ``StorageError/Code``: not found 1; data that does not parse, fit or
    /// encode 65; I/O and anything else 74.
    static func exitCode(for code: StorageError.Code) -> ExitCode {
        .forFailure(code)
    }
}
