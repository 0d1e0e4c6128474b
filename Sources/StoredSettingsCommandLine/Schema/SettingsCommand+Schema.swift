import Foundation
import StoredSettings

extension SettingsCommand {
    /// `config schema`: prints the JSON Schema of the settings file
    /// (`SettingsGroup.jsonSchema(title:)`), titled `<tool> settings`.
    func schema(_ arguments: [String], _ context: inout Context) -> ExitCode {
        guard arguments.isEmpty else { return context.usage("schema takes no arguments") }
        context.output += JSONSchemaDocument.text(for: settings, title: "\(toolName) settings")
        return .success
    }
}
