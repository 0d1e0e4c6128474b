public import StoredSettings

extension LayeredStore {
    /// Creates a store reading `layers` in order and writing to `writable`, for the settings
    /// `group` declares, and reports the layers' ``warnings`` once.
    ///
    /// ```swift
    /// let file = try FileStore(application: "daybook")
    /// let store = LayeredStore(
    ///     [CommandLineStore(declaredBy: AppSettings.self), EnvironmentStore(prefix: "DAYBOOK"), file],
    ///     writingTo: file, declaredBy: AppSettings.self)
    /// ```
    ///
    /// Knowing the declarations, the store
    /// - merges field overrides: a layer that gives single fields of a structured setting
    ///   (`APP_LAYOUT_INDENT=4` from the environment, `--layout.indent 4` from the command line)
    ///   overrides those fields of the value the layers below it give, keeping the others. Reads
    ///   return the first whole value (a dictionary, or JSON object text) with the field
    ///   overrides of every layer above it, and its own, applied from the lowest layer up (a
    ///   higher layer's field wins; deeper paths are set inside nested dictionaries). A whole
    ///   value in a layer above a field override wins over it. When no layer holds the key, the
    ///   fields are applied to the setting's declared default (an empty dictionary when it has
    ///   none). A whole value that is neither is returned as it is, so reading it is the error
    ///   naming its source. `origin(forKey:)` adds the fields' sources:
    ///   `file ~/.config/app/settings.json; indent: environment variable APP_LAYOUT_INDENT`;
    /// - reports, through `StorageErrorReporter` and once per process however many stores
    ///   find them, its ``warnings``: every key of the file (or another stored layer) that no
    ///   declared setting uses, with a did-you-mean hint, and the layers' own warnings
    ///   (misspelt options, unknown `PREFIX_*` variables, secret files others can read). Keys
    ///   the library keeps in the file itself are never reported.
    ///
    /// Use ``CommandLineSettings`` to make such a store and stop on bad input in one call.
    ///
    /// - Parameters:
    ///   - layers: The stores to read, highest priority first.
    ///   - writable: The store that receives writes; read after `layers` when not among them.
    ///   - group: The settings group the store serves.
    public convenience init(
        _ layers: [any Storable], writingTo writable: any Storable, declaredBy group: any SettingsGroup.Type
    ) {
        self.init(layers, writingTo: writable, declaredBy: group, reportingWarnings: true)
    }

    /// Like ``init(_:writingTo:declaredBy:)``, reporting the warnings only when asked.
    convenience init(
        _ layers: [any Storable], writingTo writable: any Storable, declaredBy group: any SettingsGroup.Type,
        reportingWarnings: Bool
    ) {
        let declarations = group.declarations()
        let byKey = Dictionary(declarations.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        self.init(layers, writingTo: writable) { all in
            LayerMerge(
                layers: all, declarations: byKey, warnings: Self.collectWarnings(layers: all, declarations: byKey))
        }
        if reportingWarnings { reportWarningsOnce() }
    }
}
