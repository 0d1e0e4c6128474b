import StoredSettings

extension SettingsCommand {
    /// The warnings about the settings' stores that `list` prints: keys of the file (or
    /// another stored layer) that no setting of the group uses, with a did-you-mean hint, and
    /// the layers' own warnings (misspelt options, unknown `PREFIX_*` variables, secret files
    /// others can read); only those not yet reported in this process, which are then marked
    /// reported.
    ///
    /// Only settings on a `LayeredStore` are checked: that is how a tool stacks its file and
    /// one-run layers, and a store on its own may be shared with other code.
    func unreportedWarnings() -> [StorageError] {
        guard let store = settings.first?.setting.settingStore as? LayeredStore else { return [] }
        let layers = store.layers
        let declarations = settings.map(\.setting.declaration)
        let byKey = Dictionary(declarations.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        return LayeredStore.collectWarnings(layers: layers, declarations: byKey).filter(ReportedWarnings.isFirstReport)
    }
}
