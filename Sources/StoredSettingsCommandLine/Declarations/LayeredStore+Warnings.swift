public import StoredSettings

extension LayeredStore {
    /// Probable mistakes found in the layers, in layer order: each layer's own warnings (a
    /// misspelt option, an environment variable with the prefix that no setting uses, a secret
    /// file others can read, a key the file repeats) and, for a store made for a settings group
    /// (``init(_:writingTo:declaredBy:)``), every key of the file or another stored layer that
    /// no declared setting uses, with a did-you-mean hint (code `StorageError.Code.unknownKey`):
    /// `Setting 'pageSise' in file ~/.config/app/settings.json: no declared setting uses this
    /// key (did you mean 'pageSize'?).` Keys the library keeps in the file itself are not
    /// reported.
    ///
    /// Found when the store was made: reading them takes no lock, so an `update` body may.
    public var warnings: [StorageError] {
        (merging as? LayerMerge)?.warnings ?? layerWarnings
    }

    /// The declared settings by key of a store made for a settings group; empty for another.
    var declarations: [String: SettingDeclaration] {
        (merging as? LayerMerge)?.declarations ?? [:]
    }

    /// The sources of the fields of `key` that layers give on their own (`--layout.indent 4`),
    /// by field path, for the fields reads see; empty when none is.
    func fieldOrigins(forKey key: String) -> [(path: String, origin: String)] {
        merging?.fieldOrigins(forKey: key) { layers[$0].value(forKey: key) != nil } ?? []
    }

    /// Keys the library itself keeps in settings files beside the declared settings, never
    /// reported as unknown: `MigratingStore.versionKey` (StoredSettingsMigrations, not a
    /// dependency of this module; a test checks the two agree).
    package static let reservedKeys: Set<String> = ["storedSettingsSchemaVersion"]

    /// Whether `layer` gives values for one run only (the command line, the environment, any
    /// layer with field overrides): its keys are not settings stored anywhere, so they are not
    /// checked against the declarations (the layer reports its own unknown names).
    static func isOneRunLayer(_ layer: any Storable) -> Bool {
        layer is EnvironmentStore || layer is any FieldOverridingStore
    }

    /// The layers' own warnings and, given declarations, an `unknownKey` warning per key of a
    /// stored layer that no declared setting uses (not a `UserDefaultsStore`'s, whose domain
    /// holds the system's keys too).
    static func collectWarnings(
        layers: [any Storable], declarations: [String: SettingDeclaration]
    ) -> [StorageError] {
        var result: [StorageError] = []
        for layer in layers {
            if let diagnosing = layer as? any DiagnosingStore { result += diagnosing.warnings }
            // A defaults domain also holds keys of the system and of other code in the process.
            guard !declarations.isEmpty, !isOneRunLayer(layer), !(layer is UserDefaultsStore) else { continue }
            let unknown = layer.keys().filter { declarations[$0] == nil && !reservedKeys.contains($0) }
            for key in unknown.sorted() {
                var message = "no declared setting uses this key"
                if let field = fieldHint(for: key, declarations) {
                    message += " (\(field))"
                } else if let match = closestMatch(to: key, among: declarations.keys.sorted()) {
                    message += " (did you mean '\(match)'?)"
                }
                result.append(StorageError(.unknownKey, key: key, location: layer.describedLocation, message: message))
            }
        }
        return result
    }

    /// For a key that spells a field of a structured setting with a dot (`layout.indent`), how
    /// a file holds that field: `{"layout": {"indent": …}}`; `nil` for any other key.
    private static func fieldHint(for key: String, _ declarations: [String: SettingDeclaration]) -> String? {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1, case .structure(var fields)? = declarations[parts[0]]?.shape else { return nil }
        for (index, name) in parts.dropFirst().enumerated() {
            guard let shape = fields[name] else { return nil }
            if index < parts.count - 2 {
                guard case .structure(let inner) = shape else { return nil }
                fields = inner
            }
        }
        let nested = parts.reversed().reduce("…") { inner, name in "{\"\(name)\": \(inner)}" }
        return "a file holds the field '\(parts.dropFirst().joined(separator: "."))' of '\(parts[0])' as \(nested)"
    }

    /// Reports each of ``warnings`` not reported before in this process to `StorageErrorReporter`.
    func reportWarningsOnce() {
        for warning in warnings where ReportedWarnings.isFirstReport(of: warning) {
            StorageErrorReporter.report(warning)
        }
    }
}
