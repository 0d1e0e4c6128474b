import StoredSettings
public import StoredSettingsCommandLine

/// The status the `stored` command exits with: the library's ``SettingsCommand/ExitCode``
/// (sysexits: 0 success, 1 not found, 64 usage, 65 bad data, 66 no input, 74 I/O error), under
/// the short name the tool's code and tests use. One type, so `stored` and every tool's
/// `config` subcommand exit alike.
///
/// ```swift
/// var output = "", errors = ""
/// let code = StoredCLI.run(arguments: ["keys", "settings.json"], output: &output, error: &errors)
/// if code == .success { print(output) }
/// ```
public typealias ExitCode = SettingsCommand.ExitCode
