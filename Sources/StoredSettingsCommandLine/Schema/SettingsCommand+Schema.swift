import Foundation
import StoredSettings

extension SettingsCommand {
    /// `config schema [--declared-only] [--draft 7|2020-12]`: prints the JSON Schema of the
    /// settings file (`SettingsGroup.jsonSchema(title:strict:draft:)`), titled `<tool> settings`;
    /// `--declared-only` prints the strict schema, for a file that serves these settings only, so
    /// keys no setting declares are refused (not `--strict`, which tools such as daybook take as
    /// their own); `--draft 7` writes it in draft-07's keywords, for editors that implement that
    /// draft.
    func schema(_ arguments: [String], _ context: inout Context) -> ExitCode {
        var strict = false
        var draft = JSONSchemaDraft.draft2020
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--declared-only":
                strict = true
            case "--draft":
                guard let name = rest.popFirst(), let chosen = JSONSchemaDraft(rawValue: name) else {
                    return context.usage("--draft takes 7 or 2020-12")
                }
                draft = chosen
            default:
                return context.usage(
                    argument.hasPrefix("-") ? "schema does not take '\(argument)'" : "schema takes no arguments")
            }
        }
        context.output += JSONSchemaDocument.text(
            for: settings, title: "\(toolName) settings", strict: strict, draft: draft)
        return .success
    }
}
