/// The status the `stored` command exits with, following `sysexits.h`.
///
/// ```swift
/// var output = "", errors = ""
/// let code = StoredCLI.run(arguments: ["keys", "settings.json"], output: &output, error: &errors)
/// if code == .success { print(output) }
/// ```
///
/// Thread-safety: a value type; use it anywhere.
public struct ExitCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The number the process exits with.
    public let rawValue: Int32

    /// Wraps a process exit status.
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// 0: the command did what was asked.
    public static let success = ExitCode(rawValue: 0)
    /// 1: the key asked for holds no value (`read` or `delete` of a missing key), as
    /// `defaults read` exits when a key does not exist.
    public static let notFound = ExitCode(rawValue: 1)
    /// 64 (`EX_USAGE`): the arguments are wrong: an unknown command or type, a missing value,
    /// a target that is neither a `.json`/`.plist` path nor `--domain NAME`.
    public static let usage = ExitCode(rawValue: 64)
    /// 65 (`EX_DATAERR`): the data is wrong: a VALUE that does not fit its TYPE (`-int abc`),
    /// a settings or import file that does not parse, a value the target cannot hold.
    public static let dataError = ExitCode(rawValue: 65)
    /// 66 (`EX_NOINPUT`): the file given to `import` does not exist or cannot be read.
    public static let noInput = ExitCode(rawValue: 66)
    /// 74 (`EX_IOERR`): reading or writing the target failed (an unwritable path, a full disk).
    public static let ioError = ExitCode(rawValue: 74)

    /// The number, such as `64`.
    public var description: String { String(rawValue) }
}
