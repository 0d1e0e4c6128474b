import Foundation
public import StoredSettings

extension CommandLineStore {
    /// Reads `--set key=value` and one option per setting that `group` declares.
    ///
    /// Each `Stored` setting of the group gets an option named after its key in kebab case:
    /// `--kebab-key value` and `--kebab-key=value`; a `Bool` (or `Bool?`) setting gets the flags
    /// `--kebab-key` and `--no-kebab-key` instead. A list setting's option may be repeated
    /// (`--host a --host b`), and a structured setting's fields have options of their own
    /// (`--layout.indent 4`); see ``CommandLineStore``. `--set` then takes only the keys the group
    /// declares: any other key (a typo, or another spelling such as `page-size` for `pageSize`)
    /// is an `StorageError/Code/invalidKey` in ``errors`` rather than a value no setting
    /// would ever read. Use ``init(arguments:)`` to accept every key.
    ///
    /// `--help` and the flags of ``SettingsCommand`` (`--json`, `--show-origin`,
    /// `--show-secret`, `--all`, `--declared-only`) stay the tool's: a setting whose option would be one of them
    /// is read from `--set key=value` only.
    ///
    /// The group's settings are found with `Mirror` on an instance created on a throwaway
    /// in-memory store, so nothing is read from or written to the tool's stores.
    ///
    /// - Parameters:
    ///   - arguments: The command-line arguments without the program name.
    ///   - group: The settings group whose settings get an option each.
    public convenience init(
        arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        declaredBy group: any SettingsGroup.Type
    ) {
        self.init(arguments: arguments, parser: Self.parser(for: group))
    }

    /// The parser of `group`'s options, built once per type in a process.
    static func parser(for group: any SettingsGroup.Type) -> CommandLineParser {
        parsers.value(forKey: ObjectIdentifier(group)) { parser(for: group.declarations()) }
    }

    /// The parser of the options of `declarations`: what the store reads and the help lists.
    static func parser(for declarations: [SettingDeclaration]) -> CommandLineParser {
        let options = declarations.compactMap { declaration in
            KeyWords.kebabCase(declaration.key).map { Option(name: $0, key: declaration.key, shape: declaration.shape) }
        }
        return CommandLineParser(
            options: options, declaredKeys: declarations.map(\.key), reservedNames: SettingsCommand.reservedOptionNames)
    }
}

private let parsers = Lock<[ObjectIdentifier: CommandLineParser]>([:])

extension SettingsCommand {
    /// Option names (without `--`) that no declared setting takes as its own, with or without
    /// `no-` in front: `--help` and the command's flags must reach the tool's parser whatever
    /// the tool's settings are named. (`--set` is ``CommandLineStore``'s own and always
    /// reserved.)
    ///
    /// Not public: tools never need the list; the help text and the articles name the flags.
    package static let reservedOptionNames: Set<String> = [
        "help", "json", "show-origin", "show-secret", "all", "declared-only",
    ]
}
