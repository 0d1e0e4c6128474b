import Foundation

/// What the layers know about one declared setting, as plain data: the command layer derives
/// these from a settings group (key, shape, default, secrecy), so the stores below it never
/// name the wrapper's types.
package struct SettingDeclaration: Sendable, Equatable {
    /// The shape of a setting's values, as far as the layers need it.
    package indirect enum Shape: Sendable, Equatable {
        /// A `Bool` (or `Bool?`): command-line flags set it without text.
        case boolean
        /// An array or a set: lists from the environment and the command line fill it.
        case list
        /// A structure (a `Codable` type stored as a dictionary) with these fields, by name:
        /// one field can be overridden on its own (`APP_LAYOUT_INDENT=4`, `--layout.indent 4`).
        /// The fields are those of the default value's stored form.
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
    /// Whether the value is a secret (hidden in listings; secret files are checked for their
    /// permissions).
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
    /// Where it comes from, in the words of ``OriginDescribingStore/origin(forKey:)``:
    /// `environment variable APP_LAYOUT_INDENT`, `--layout.indent on the command line`.
    package var origin: String

    package init(path: [String], value: StoredValue, origin: String) {
        self.path = path
        self.value = value
        self.origin = origin
    }
}

/// A layer that can override single fields of structured settings; ``LayeredStore`` merges
/// them over the value the lower layers (or the default) give.
package protocol FieldOverridingStore: Storable {
    /// The field overrides this layer gives inside `key`'s structure, in a fixed order; empty
    /// when it gives none.
    func fieldOverrides(forKey key: String) -> [FieldOverride]
}
