extension LayeredStore {
    /// Whether `layer` gives values for one run only (the command line, the environment, any
    /// layer with field overrides): its keys are not settings stored anywhere, so they are not
    /// checked against the declarations (the layer reports its own unknown names).
    package static func isOneRunLayer(_ layer: any Storable) -> Bool {
        layer is EnvironmentStore || layer is any FieldOverridingStore
    }

    /// The warnings found in the layers when the store was made: each layer's own (misspelt
    /// options, `PREFIX_*` variables no setting uses, secret files others can read) and, given
    /// declarations, one ``StorageError/Code/unknownKey`` per key of a stored layer (the file,
    /// shared defaults) that no declared setting uses and the library does not reserve, with a
    /// did-you-mean hint. A `UserDefaultsStore` layer is not checked: its domain also holds
    /// keys of the system and of other code.
    package static func collectWarnings(
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

    /// Reports each of ``warnings`` through ``StorageErrorReporter`` that has not been
    /// reported before in this process.
    package func reportWarningsOnce() {
        for warning in warnings where ReportedWarnings.isFirstReport(of: warning) {
            StorageErrorReporter.report(warning)
        }
    }
}
