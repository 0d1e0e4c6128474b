import Foundation
public import StoredSettings

/// A read-only store of settings given on the command line for one run.
///
/// Every tool understands `--set key=value` (repeatable). Given the settings group it
/// declares, the store also reads one option per setting, named after the key in kebab case:
///
/// ```swift
/// let commandLine = CommandLineStore(arguments: ["--set", "theme=dark", "--no-auto-reload", "notes.txt"],
///                                    declaredBy: AppSettings.self)
/// try commandLine.validate()
/// commandLine.value(forKey: "theme")        // .string("dark")
/// commandLine.value(forKey: "autoReload")   // .bool(false)
/// commandLine.remainingArguments            // ["notes.txt"]
/// ```
///
/// | Argument | Meaning |
/// |---|---|
/// | `--set key=value`, `--set=key=value` | any key (a declared key, given a group); the text after the first `=` is the value |
/// | `--font-size 14`, `--font-size=14` | a declared setting `fontSize` |
/// | `--auto-reload`, `--no-auto-reload` | a declared `Bool` setting: `true`, `false` |
/// | `--auto-reload=false`, `--auto-reload=yes` | a declared `Bool` setting, from the text after `=` |
/// | `--host a --host b`, `--host a,b` | a declared list setting `host` (an array or a set): the items of every occurrence |
/// | `--layout.indent 4`, `--set layout.indent=4` | one field of a declared structured setting `layout` |
/// | `--` | ends the options: it and everything after it are left alone |
///
/// **Flags.** A `Bool` flag followed by a Boolean word (`true`, `false`, `yes`, `no`, `on`,
/// `off`, `1`, `0`, in any case) is an error, never `true` and a stray argument:
/// `--auto-reload false` gives `--auto-reload is a flag and takes no separate value 'false';
/// write --auto-reload=false or --no-auto-reload`. Any other argument after a flag is left for
/// the tool.
///
/// **Lists.** Each occurrence of a list setting's option is list text (comma-separated, `\,`
/// for a comma inside an item, items trimmed; see "Supported types") or JSON array text, and
/// the items of all occurrences are joined in order: `--tag a,b --tag c` is `["a", "b", "c"]`.
/// `--set tag=a,b` gives the whole list (the same text rules) and replaces what came before
/// it; an option after it adds to it. An occurrence that spells no list (`--ports 1,,2`, an
/// empty item) is kept as the value, so reading the setting is a type mismatch naming the
/// option, and later occurrences add nothing to it.
///
/// **Fields.** `--name.field value` (or `=value`) gives one field of a declared structured
/// setting (a `Codable` structure whose default is stored as a dictionary), and
/// `--name.outer.inner` a field inside a field; each field is written as stored (`wrapColumn`)
/// or in kebab case (`wrap-column`). `--set key.field=value` does the same with the key. The
/// value is text, read as the field's type. A field the structure does not have is an
/// `StorageError/Code/unknownKey` error with a did-you-mean hint. `LayeredStore` applies
/// field overrides over the value of the layers below, keeping the other fields. On one command
/// line the last word wins: a whole value (`--layout JSON`, `--set layout=JSON`) replaces the
/// field overrides given before it, and fields given after it override it. When a
/// declared key itself contains a `.` (`editor.fontSize`), `--set editor.fontSize=3` sets that
/// setting, not the field `fontSize` of a structured setting `editor`: a declared key always
/// wins over a field path. Optional structures have no declared fields, so they have no field
/// options.
///
/// Option names follow the words of `EnvironmentStore`'s mapping, in lowercase joined by `-`
/// (`editor.fontSize` → `--editor-font-size`, `httpURL` → `--http-url`). A setting whose option
/// would be a reserved name (`set`, the store's own, and with `declaredBy:` `help` and the flags
/// of the `config` subcommand: `json`, `show-origin`, `show-secret`, `all`, `declared-only`), or such a name with
/// `no-` in front, gets no option of its own: give it with `--set all=…`. Those arguments keep
/// their meaning and are left in ``remainingArguments``, so `config list --json` works whatever
/// the tool's settings are named. When two keys map to the same option, the first declared gets
/// it. When a key other than a list is given twice, the last one wins. Values are
/// `StoredValue/string(_:)`s (the value layer reads them leniently, JSON text for
/// structures); the Bool flags are `StoredValue/bool(_:)`, and a list given by several
/// occurrences an `StoredValue/array(_:)` of their items.
///
/// Arguments the store does not recognise are kept, in order, in ``remainingArguments`` for
/// the tool's own parser; an option among them that is a few letters from a declared
/// option (`--page-sise`) is also in ``warnings``, with a did-you-mean hint. Malformed ones (`--set` without `=`, an empty key, a key the group
/// does not declare, a declared option without its value, a flag followed by a Boolean word, a
/// field the structure lacks) are collected in ``errors`` and not applied; call ``validate()`` (or
/// check ``errors``) before using the store. The initializer itself never fails, so it can
/// stand in a stored-property initializer.
///
/// Pass the arguments without the program name; the default is
/// `CommandLine.arguments.dropFirst()`.
///
/// Thread-safety: immutable after creation; every member may be used from any thread or task.
public final class CommandLineStore: OriginDescribingStore, FieldOverridingStore {
    /// A value given on the command line and the argument that gave it.
    struct Entry: Sendable {
        var value: StoredValue
        var origin: String
    }

    /// The arguments the store did not use, in their original order.
    public let remainingArguments: [String]
    /// The malformed arguments, in order: code `StorageError/Code/invalidArgument` (or
    /// `StorageError/Code/invalidKey` for a bad key, `StorageError/Code/unknownKey` for a
    /// field the structure lacks), never containing a value.
    public let errors: [StorageError]

    /// Options the store did not take that look like misspelt options of declared settings
    /// (`--page-sise` for `--page-size`), with a did-you-mean hint: code
    /// `StorageError/Code/unknownKey`. They are also left in ``remainingArguments``, since
    /// they may be the tool's own. Empty without declared options.
    public let warnings: [StorageError]

    private let entries: [String: Entry]
    /// The field overrides per key, in the order given.
    private let fields: [String: [FieldOverride]]
    private let broadcaster = ChangeBroadcaster()

    /// Reads `--set key=value` options from `arguments`.
    ///
    /// - Parameter arguments: The command-line arguments without the program name.
    public convenience init(arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        self.init(arguments: arguments, options: [])
    }

    /// An option for one declared setting.
    package struct Option: Sendable {
        /// The option's name without the leading `--`: `auto-reload`.
        package var name: String
        /// The setting's key.
        package var key: String
        /// The shape of the setting's values: a flag for `.boolean`, repeatable for `.list`,
        /// with `--name.field` options for `.structure`.
        package var shape: SettingDeclaration.Shape

        /// Whether it is a Bool flag (`--name`, `--no-name`).
        package var isFlag: Bool { shape == .boolean }

        /// An option `--name` for the setting `key`, with the setting's shape.
        package init(name: String, key: String, shape: SettingDeclaration.Shape) {
            self.name = name
            self.key = key
            self.shape = shape
        }

        /// An option `--name` for the setting `key`: a flag, or an option taking one value.
        package init(name: String, key: String, isFlag: Bool) {
            self.init(name: name, key: key, shape: isFlag ? .boolean : .other)
        }
    }

    /// Reads `--set key=value` and `options`; with `declaredKeys`, a `--set` of any other key
    /// (other than a field of a structured option: `--set layout.indent=4`) is an error.
    ///
    /// The store knows its options only as plain data, so it stays below the layers that
    /// declare settings: ``init(arguments:declaredBy:)`` derives them from a settings group.
    ///
    /// - Parameters:
    ///   - arguments: The command-line arguments without the program name.
    ///   - options: One per declared setting; an option whose name is reserved (or is `no-`
    ///     and a reserved name) is left out, and of two options with one name the first wins.
    ///   - declaredKeys: The keys `--set` accepts, or `nil` for any key.
    ///   - reservedNames: Option names (without `--`) that stay the tool's, besides `set`.
    package convenience init(
        arguments: [String], options: [Option], declaredKeys: [String]? = nil, reservedNames: Set<String> = []
    ) {
        self.init(
            arguments: arguments,
            parser: CommandLineParser(options: options, declaredKeys: declaredKeys, reservedNames: reservedNames))
    }

    /// Reads `arguments` with `parser`.
    init(arguments: [String], parser: CommandLineParser) {
        let parsed = parser.parse(arguments)
        self.entries = parsed.entries
        self.fields = parsed.fields
        self.remainingArguments = parsed.remaining
        self.errors = parsed.errors
        self.warnings = parsed.warnings
    }

    /// Throws the first malformed argument's error, if any.
    ///
    /// - Throws: The first of ``errors``.
    public func validate() throws {
        if let first = errors.first { throw first }
    }

    /// The value given for `key`, or `nil`.
    public func value(forKey key: String) -> StoredValue? {
        entries[key]?.value
    }

    /// The value and a revision that never changes: the arguments are fixed at creation.
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        (entries[key]?.value, 0)
    }

    /// Always throws: the command line is read-only.
    ///
    /// - Throws: `StorageError/Code/readOnly` naming the key.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        throw readOnlyError(forKey: key)
    }

    /// Runs `body` on the current value; throws when `body` changes it.
    ///
    /// - Returns: What `body` returns, when it leaves the value as it was.
    /// - Throws: What `body` throws, or `StorageError/Code/readOnly` when `body` changes the
    ///   value.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try readOnlyUpdate(value(forKey: key), body, refusal: readOnlyError(forKey: key))
    }

    /// Every key given on the command line.
    public func keys() -> [String] {
        Array(entries.keys)
    }

    /// A stream that never delivers a change. It ends when its consumer stops iterating.
    public func changes() -> AsyncStream<StoredChange> {
        broadcaster.subscribe()
    }

    /// `command line`.
    public var location: String? { "command line" }

    /// The fields of `key` given on their own (`--layout.indent 4`, `--set layout.indent=4`),
    /// in the order given; a later one for the same field wins.
    package func fieldOverrides(forKey key: String) -> [FieldOverride] {
        fields[key] ?? []
    }

    /// The argument that gave the key's value, without the value:
    /// `--set autoReload=… on the command line`, `--no-auto-reload on the command line`.
    public func origin(forKey key: String) -> String? {
        entries[key]?.origin
    }

    private func readOnlyError(forKey key: String) -> StorageError {
        StorageError(
            .readOnly, key: key, location: "command line",
            message: "settings given on the command line are read-only"
        )
    }
}

extension CommandLineStore: DiagnosingStore {}
