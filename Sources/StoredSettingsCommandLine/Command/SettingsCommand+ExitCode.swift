package import StoredSettings

extension SettingsCommand {
    /// The status a settings command exits with, following `sysexits.h`: what
    /// ``SettingsCommand/run(arguments:)`` returns, and what the `stored` tool exits with.
    ///
    /// ```swift
    /// let status = SettingsCommand(settings, toolName: "notes").run(arguments: ["get", "editor"])
    /// if status == .notFound { print("editor is not set") }
    /// exit(status.rawValue)
    /// ```
    ///
    /// The type is nested in ``SettingsCommand`` so that the package claims no top-level
    /// `ExitCode`, a name a tool's own argument parsing often declares. An integer literal
    /// makes one: `status == 64`.
    ///
    /// Thread-safety: a value type; use it anywhere.
    public struct ExitCode: RawRepresentable, Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
        /// The number the process exits with, as `exit(3)` takes it.
        public let rawValue: Int32

        /// Wraps a process exit status.
        ///
        /// - Parameter rawValue: The number, such as `64`.
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// Wraps a process exit status written as a literal: `let status: ExitCode = 64`.
        ///
        /// - Parameter value: The number.
        public init(integerLiteral value: Int32) { self.rawValue = value }

        /// 0: the command did what was asked.
        public static let success: ExitCode = 0
        /// 1: the setting or key asked for holds no value (`config get` of an unset optional,
        /// a name no setting has, `stored read` or `delete` of a missing key), as
        /// `defaults read` exits when a key does not exist.
        public static let notFound: ExitCode = 1
        /// 5: `config unset` of a key the settings file does not hold, as `git config --unset`
        /// exits; nothing is written.
        public static let notSet: ExitCode = 5
        /// 64 (`EX_USAGE`): the arguments are wrong: an unknown subcommand or type, a missing
        /// value, a target that is neither a `.json`/`.plist` path nor `--domain NAME`.
        public static let usage: ExitCode = 64
        /// 65 (`EX_DATAERR`): the data is wrong: a value that does not fit the setting's type
        /// (`-int abc`), a file that does not parse, a value the store cannot hold (NaN or an
        /// infinity in a JSON file). Nothing is written then.
        public static let dataError: ExitCode = 65
        /// 66 (`EX_NOINPUT`): an input file (`stored import FILE`) does not exist or cannot be
        /// read.
        public static let noInput: ExitCode = 66
        /// 74 (`EX_IOERR`): the store could not be read or written (an unwritable path, a full
        /// disk), or the output could not be written (standard output is a closed pipe).
        public static let ioError: ExitCode = 74

        /// The number, such as `64`.
        public var description: String { String(rawValue) }
    }
}

extension SettingsCommand.ExitCode {
    /// The status for a failure with `code`: 1 for a missing key; 65 for data that does not
    /// parse, fit or encode (a file nested too deep or too large is bad data too); 74 for I/O
    /// and anything else.
    package static func forFailure(_ code: StorageError.Code) -> Self {
        switch code {
        case .notFound: .notFound
        case .typeMismatch, .dataCorrupted, .encodingFailed, .nestingTooDeep, .tooLarge, .invalidKey: .dataError
        default: .ioError
        }
    }
}
