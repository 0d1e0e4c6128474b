public import StoredSettings

extension EnvironmentStore {
    /// Creates a store of the variables with `prefix` that knows the settings `group`
    /// declares: it overrides single fields of structured settings (`APP_LAYOUT_INDENT=4`),
    /// reads the secret files (`NAME_FILE`) of declared settings now, and warns about
    /// variables no setting reads.
    ///
    /// ```swift
    /// let environment = EnvironmentStore(prefix: "DAYBOOK", declaredBy: DaybookSettings.self)
    /// try environment.validate()   // a secret file that cannot be read stops the tool
    /// for warning in environment.warnings { print(warning) }
    /// ```
    ///
    /// The store:
    ///
    /// - overrides one field of a structured setting: `APP_LAYOUT_INDENT=4` gives the field
    ///   `indent` of `layout` (deeper too: `APP_PAGE_MARGINS_TOP` gives `margins.top` of `page`),
    ///   merged by `LayeredStore` over the value the lower layers give. Field names become
    ///   variable words as keys do (`wrapColumn` → `WRAP_COLUMN`). A structure's fields are those
    ///   of its default; the whole value can still be given as JSON (`APP_LAYOUT={"indent":4}`).
    ///   Secret files serve whole settings only, not fields.
    /// - resolves names that could mean two things by one rule: a declared key's own variable is
    ///   that key's, never a field path (`layoutIndent` owns `APP_LAYOUT_INDENT` over `layout`'s
    ///   field `indent`); among field paths, the one under the longest key (in words) wins
    ///   (`APP_PAGE_MARGINS_TOP` is `top` of `pageMargins` rather than `marginsTop` of `page`);
    ///   a name that still matches two fields of one key (`margins.top` and `marginsTop`) is used
    ///   for neither and draws a `StorageError.Code.ambiguousVariable` warning.
    /// - warns about every variable with the prefix that no setting reads (not a key's own
    ///   variable, a field's, nor a `NAME_FILE` companion of a declared key): a
    ///   `StorageError.Code.unknownKey` in ``warnings`` naming the variable, with a
    ///   did-you-mean hint naming the closest variable that is read. (With an empty prefix there
    ///   is no such check.) A name that is not valid UTF-8 is reported under its spelling with
    ///   U+FFFD.
    /// - reads the secret files of declared keys at creation, and warns when a secret setting's
    ///   file can be read by every user (mode bit `0o004`; group access is left to the
    ///   administrator, as Kubernetes' `fsGroup` uses it) and when a file is empty (its key then
    ///   counts as unset, unless `emptyValues` is `.empty`). Messages call the file of a setting
    ///   that is not secret "the file", a secret setting's "the secret file". A declared key
    ///   whose own variable ends in `_FILE` (`configFile`, `APP_CONFIG_FILE`) keeps its plain
    ///   meaning: that variable is never a secret file for `config`.
    ///
    /// Variables of declared settings whose value is not valid UTF-8, secret files of declared
    /// settings that cannot be read, and settings given both by `NAME` and by `NAME_FILE` are
    /// in ``errors`` (``validate()`` throws the first); secret
    /// files of secret settings that every user may read, variables no setting reads and
    /// variables naming two fields are in ``warnings``.
    ///
    /// The group's settings are found with `Mirror` on an instance created on a throwaway
    /// in-memory store, so nothing is read from or written to the tool's stores. A structure's
    /// fields are those of its default value's stored form.
    ///
    /// - Parameters:
    ///   - prefix: The tool's prefix, such as `DAYBOOK`; a `_` is added unless it already ends
    ///     with one. With an empty prefix there is no unknown-variable check.
    ///   - environment: Variables by name; by default the process's environment, read now.
    ///   - group: The settings group whose settings the variables give.
    ///   - emptyValues: What a set but empty variable means: `.unset` (the default) or
    ///     `.empty`.
    ///   - otherVariables: Full names of variables with the prefix that the tool reads itself
    ///     and that are no settings (daybook's `DAYBOOK_ETCD`): never reported as unknown.
    ///
    /// Thread-safety: the store is immutable after creation and may be used from any thread.
    public convenience init(
        prefix: String, environment: [String: String]? = nil, declaredBy group: any SettingsGroup.Type,
        emptyValues: EmptyValues = .unset, otherVariables: Set<String> = []
    ) {
        self.init(
            prefix: prefix, environment: environment, declarations: group.declarations(), emptyValues: emptyValues,
            otherVariables: otherVariables)
    }

    /// Creates a store that knows `declarations`, as ``init(prefix:environment:declaredBy:emptyValues:otherVariables:)``.
    package convenience init(
        prefix: String, environment: [String: String]?, declarations: [SettingDeclaration],
        emptyValues: EmptyValues = .unset, otherVariables: Set<String> = []
    ) {
        self.init(
            prefix: prefix, environment: environment, emptyValues: emptyValues,
            declaring: Self.declaring(declarations, emptyValues: emptyValues, otherVariables: otherVariables))
    }

    /// Creates a store that knows `declarations` from `NAME=VALUE` byte strings, as the C
    /// `environ` array holds them.
    package convenience init(
        prefix: String, rawEnvironment: [[UInt8]], declarations: [SettingDeclaration],
        emptyValues: EmptyValues = .unset, otherVariables: Set<String> = []
    ) {
        self.init(
            prefix: prefix, rawEnvironment: rawEnvironment, emptyValues: emptyValues,
            declaring: Self.declaring(declarations, emptyValues: emptyValues, otherVariables: otherVariables))
    }

    private static func declaring(
        _ declarations: [SettingDeclaration], emptyValues: EmptyValues, otherVariables: Set<String>
    ) -> Declaring {
        { prefix, variables, names, undecodable in
            EnvironmentDeclarations(
                prefix: prefix, variables: variables, names: names, undecodable: undecodable,
                declarations: declarations, otherVariables: otherVariables, emptyValues: emptyValues)
        }
    }

    /// What the declarations gave; `nil` for a store made without them.
    private var declarations: EnvironmentDeclarations? { declared as? EnvironmentDeclarations }

    /// Problems found at creation by a store with declarations, in a fixed order: by declared
    /// setting, a variable whose value is not valid UTF-8 (`dataCorrupted`), secret files that
    /// cannot be read (`notFound`, `io`, `tooLarge`, `dataCorrupted`), settings given both by
    /// `NAME` and `NAME_FILE` (`ambiguousVariable`); then field variables that are not valid
    /// UTF-8. Each names the key, the variable and the path, never a value. Empty without
    /// declarations.
    public var errors: [StorageError] { declarations?.errors ?? [] }

    /// Things worth telling the user, found at creation by a store with declarations: secret
    /// files that every user may read (`insecurePermissions`), empty secret files, variables
    /// with the prefix that no setting reads (`unknownKey`, with a did-you-mean hint),
    /// variables that name two fields (`ambiguousVariable`). Empty without declarations.
    public var warnings: [StorageError] { declarations?.warnings ?? [] }

    /// Throws the first of ``errors``, if any: call it at startup so a tool stops on a secret
    /// file it cannot read rather than running without the secret.
    ///
    /// - Throws: The first of ``errors``.
    public func validate() throws {
        if let first = errors.first { throw first }
    }
}

extension EnvironmentStore: FieldOverridingStore {
    /// The overrides of single fields of the structured setting `key`, from its field
    /// variables (`APP_LAYOUT_INDENT=4` gives `["indent"]` of `layout`), shorter paths first;
    /// each origin names the variable. Empty without declarations.
    package func fieldOverrides(forKey key: String) -> [FieldOverride] {
        (declarations?.fieldVariables[key] ?? []).map { field in
            FieldOverride(
                path: field.path, value: .string(field.text), origin: "environment variable \(field.variable)")
        }
    }
}
