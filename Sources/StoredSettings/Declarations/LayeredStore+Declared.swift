import Foundation

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
    /// - applies field overrides (`APP_LAYOUT_INDENT=4`, `--layout.indent 4`) to the setting's
    ///   declared default when no layer holds the whole value;
    /// - reports, through ``StorageErrorReporter`` and once per process however many stores
    ///   find them, its ``warnings``: every key of the file (or another stored layer) that no
    ///   declared setting uses, with a did-you-mean hint, and the layers' own warnings
    ///   (misspelt options, unknown `PREFIX_*` variables, secret files others can read). Keys
    ///   the library keeps in the file itself are never reported.
    ///
    /// Use `CommandLineSettings` (module `StoredSettingsCommandLine`) to make such a store and stop on bad input in one call.
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
    package convenience init(
        _ layers: [any Storable], writingTo writable: any Storable, declaredBy group: any SettingsGroup.Type,
        reportingWarnings: Bool
    ) {
        self.init(layers, writingTo: writable, declarations: group.declarations())
        if reportingWarnings { reportWarningsOnce() }
    }
}
