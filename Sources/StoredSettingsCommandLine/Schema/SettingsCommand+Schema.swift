import Foundation
import StoredSettings

extension SettingsCommand {
    /// `config schema [--declared-only]`: prints the JSON Schema of the settings file
    /// (`SettingsGroup.jsonSchema(title:strict:)`), titled `<tool> settings`; `--declared-only`
    /// prints the strict schema, for a file that serves these settings only, so keys no
    /// setting declares are refused. (Not `--strict`, which tools such as daybook take as
    /// their own.)
    func schema(_ arguments: [String], _ context: inout Context) -> ExitCode {
        var strict = false
        for argument in arguments {
            guard argument == "--declared-only" else {
                return context.usage(
                    argument.hasPrefix("-") ? "schema does not take '\(argument)'" : "schema takes no arguments")
            }
            strict = true
        }
        context.output += JSONSchemaDocument.text(for: settings, title: "\(toolName) settings", strict: strict)
        return .success
    }
}
