package import StoredSettings

/// What the layers know about one declared setting, as plain data derived from a settings
/// group, so the stores never name the wrapper's types.
package struct SettingDeclaration: Sendable, Equatable {
    /// The shape of a setting's values, as far as the layers need it.
    package indirect enum Shape: Sendable, Equatable {
        /// A `Bool` (or `Bool?`): command-line flags set it without text.
        case boolean
        /// An array or a set: lists from the environment and the command line fill it.
        case list
        /// A structure (a `Codable` type stored as a dictionary) whose fields, by name, can be
        /// overridden one by one (`APP_LAYOUT_INDENT=4`, `--layout.indent 4`).
        case structure(fields: [String: Shape])
        /// Any other value: a scalar, a dictionary with open keys, a raw-value enum.
        case other
    }

    /// The key the value is stored under.
    package var key: String
    /// The shape of its values.
    package var shape: Shape
    /// The default in stored form; `nil` for optional settings.
    package var defaultValue: StoredValue?
    /// Whether the value is a secret (hidden in listings; its secret file's permissions checked).
    package var isSecret: Bool

    package init(key: String, shape: Shape, defaultValue: StoredValue? = nil, isSecret: Bool = false) {
        self.key = key
        self.shape = shape
        self.defaultValue = defaultValue
        self.isSecret = isSecret
    }
}

/// A value for one field inside a structured setting, given by a layer on its own
/// (`APP_LAYOUT_INDENT=4` gives `indent` inside `layout`).
package struct FieldOverride: Sendable, Equatable {
    /// The field names below the setting's key, outermost first: `["indent"]`.
    package var path: [String]
    /// The field's value (text from the environment or the command line is a `.string`).
    package var value: StoredValue
    /// Where it comes from, in origin words: `environment variable APP_LAYOUT_INDENT`.
    package var origin: String

    package init(path: [String], value: StoredValue, origin: String) {
        self.path = path
        self.value = value
        self.origin = origin
    }
}

/// A layer that can override single fields of structured settings; ``LayerMerge`` merges them
/// over the value the lower layers (or the default) give.
package protocol FieldOverridingStore: MergingLayer {
    /// The field overrides this layer gives inside `key`'s structure, in a fixed order; empty
    /// when it gives none.
    func fieldOverrides(forKey key: String) -> [FieldOverride]
}

extension FieldOverridingStore {
    /// Merges the field overrides of every layer, as a store made without declarations does.
    package func merging(over layers: [any Storable]) -> any LayerMerging {
        LayerMerge(layers: layers, declarations: [:])
    }
}
