import Foundation
import StoredCLI
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// The outcome of one in-process `stored` run.
struct CommandRun: Sendable {
    var code: ExitCode
    var output: String
    var errors: String

    /// The standard error text as lines.
    var errorLines: [Substring] { errors.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }
}

/// Runs `stored` in-process with `arguments`, standard input `input`, and an environment.
func stored(_ arguments: String..., input: String = "", environment: [String: String] = [:]) -> CommandRun {
    stored(arguments: arguments, input: input, environment: environment)
}

func stored(arguments: [String], input: String = "", environment: [String: String] = [:]) -> CommandRun {
    var output = ""
    var errors = ""
    let code = StoredCLI.run(
        arguments: arguments,
        input: { Data(input.utf8) },
        output: &output,
        error: &errors,
        environment: environment
    )
    return CommandRun(code: code, output: output, errors: errors)
}

/// Expects a failure: exactly one line on standard error starting with `stored: `, nothing on
/// standard output, and `code`.
func expectFailure(
    _ run: CommandRun,
    _ code: ExitCode,
    line: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(run.code == code, "\(run.errors)", sourceLocation: sourceLocation)
    #expect(run.output.isEmpty, sourceLocation: sourceLocation)
    #expect(run.errorLines.count == 1, "\(run.errors)", sourceLocation: sourceLocation)
    #expect(run.errors.hasPrefix("stored: "), sourceLocation: sourceLocation)
    if let line {
        #expect(run.errors == line + "\n", sourceLocation: sourceLocation)
    }
}

/// Expects success with nothing on standard error.
func expectSuccess(_ run: CommandRun, output: String? = nil, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(run.code == .success, "\(run.errors)", sourceLocation: sourceLocation)
    #expect(run.errors.isEmpty, sourceLocation: sourceLocation)
    if let output {
        #expect(run.output == output, sourceLocation: sourceLocation)
    }
}

/// A fresh folder under the temporary folder, removed when released.
final class TemporaryFolder: Sendable {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "StoredCLITests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` in the folder.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let path = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The contents of `name`, or `nil` when it does not exist.
    func contents(_ name: String) -> Data? {
        FileManager.default.contents(atPath: path(name))
    }

    /// The text of `name`, or `nil` when it does not exist.
    func text(_ name: String) -> String? {
        contents(name).map { String(decoding: $0, as: UTF8.self) }
    }
}

/// Whether a suite named by a plain name lives in the test's own folders. On Linux it does:
/// under `XDG_CONFIG_HOME`, which CI points at an empty folder. On Apple platforms `cfprefsd`
/// keeps it in the user's real `~/Library/Preferences` whatever `HOME` says, so tests that
/// create named suites through `stored --domain` do not run there.
#if canImport(Darwin)
let namedSuitesStayInTestFolders = false
#else
let namedSuitesStayInTestFolders = true
#endif

/// A UserDefaults suite with a unique name, removed when released.
final class TemporarySuite: Sendable {
    let name = "StoredCLITests.\(UUID().uuidString)"

    deinit {
        UserDefaults(suiteName: name)?.removePersistentDomain(forName: name)
    }
}
