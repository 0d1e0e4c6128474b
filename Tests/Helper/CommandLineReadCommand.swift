import Foundation
import StoredSettings
import StoredSettingsCommandLine

/// The settings of `command-line-read`.
struct EnvironmentToolSettings: SettingsGroup {
    @Stored("name", default: "none") var name: String
    @Stored("theme", default: "light") var theme: String
}

/// `command-line-read TOOL`: reads ``EnvironmentToolSettings`` as a tool named TOOL does, from
/// this process's environment (no arguments, an in-memory file). Prints `name <value>` and
/// `theme <value>`, each warning as `warning <line>`, and each report as `reported <error>`;
/// or `status <exit code>` and a `problem <line>` per problem when the run is stopped.
func commandLineReadCommand(toolName: String) {
    var messages = ""
    StorageErrorReporter.withHandler({ error in say("reported \(error)") }) {
        do throws(CommandLineSettings<EnvironmentToolSettings>.Failure) {
            let tool = try CommandLineSettings<EnvironmentToolSettings>(
                toolName: toolName, arguments: [], file: VolatileStore(), messages: &messages)
            for line in messages.split(separator: "\n") { say("warning \(line)") }
            say("name \(tool.settings.name)")
            say("theme \(tool.settings.theme)")
        } catch {
            say("status \(error.exitCode.rawValue)")
            for line in error.description.split(separator: "\n") { say("problem \(line)") }
        }
    }
}

/// `parse-or-exit TOOL ARGUMENT…`: the one-line start of a tool named TOOL over ARGUMENTs and an
/// in-memory file; prints `ran <the arguments left>` when `parseOrExit` returns.
func parseOrExitCommand(toolName: String, arguments: [String]) -> Never {
    let tool = CommandLineSettings<EnvironmentToolSettings>.parseOrExit(
        toolName: toolName, arguments: arguments, environment: [:], file: VolatileStore(),
        overview: "OVERVIEW: A tool for tests.\n\nUSAGE: \(toolName) [options]")
    say("ran \(tool.arguments.joined(separator: " "))")
    exit(0)
}
