public import StoredSettings

/// One setting of a `SettingsGroup` described for people and scripts: its key, type,
/// default, current value, where that value comes from, and its help sentence.
///
/// Get them from `settingDescriptions()` of a `SettingsGroup`; ``SettingsCommand`` prints them.
/// A secret setting's values are replaced by `<redacted>` here already, so no description can
/// leak one.
///
/// ```swift
/// for setting in AppSettings(store: store).settingDescriptions() {
///     print(setting.key, setting.displayValue, setting.origin)
/// }
/// ```
public struct SettingDescription: Sendable, Equatable {
    /// The key the value is stored under.
    public var key: String
    /// The property's name in the settings group (`autoReload`).
    public var propertyName: String
    /// The Swift type as declared: `Bool`, `Date?`, `Theme`.
    public var typeName: String
    /// The default in stored form; `nil` for optional settings. `<redacted>` for secrets.
    public var defaultValue: StoredValue?
    /// The value the setting has now in stored form (the stored value decoded and encoded
    /// again, so `"yes"` from the environment shows as `true`); the default when nothing is
    /// stored; `nil` for an unset optional setting, or when the stored value does not decode
    /// (see ``problem``). `<redacted>` for secrets.
    public var value: StoredValue?
    /// Where the value comes from: `default`, `environment variable APP_AUTO_RELOAD`,
    /// `--set autoReload=… on the command line`, `file ~/.config/app/settings.json`.
    public var origin: String
    /// The help sentence from the declaration.
    public var help: String?
    /// Whether the setting is secret (its values show as `<redacted>`).
    public var isSecret: Bool
    /// Why the stored value is not used, when it does not decode: the error names the key
    /// and the origin. The setting then reads its default.
    public var problem: StorageError?

    /// Creates a description; one parameter per property.
    package init(
        key: String, propertyName: String, typeName: String, defaultValue: StoredValue?,
        value: StoredValue?, origin: String, help: String? = nil, isSecret: Bool = false,
        problem: StorageError? = nil
    ) {
        self.key = key
        self.propertyName = propertyName
        self.typeName = typeName
        self.defaultValue = defaultValue
        self.value = value
        self.origin = origin
        self.help = help
        self.isSecret = isSecret
        self.problem = problem
    }

    /// Whether the value comes from a store rather than the default.
    public var isStored: Bool { origin != "default" }

    /// The value as text: `true`, `42`, ISO 8601 for dates, compact JSON for structures,
    /// `(not set)` for an unset optional, `(invalid)` when the stored value does not decode,
    /// `<redacted>` for secrets.
    public var displayValue: String {
        if problem != nil { return "(invalid)" }
        guard let value else { return "(not set)" }
        return ValueText.display(value)
    }

    /// The default as text, like ``displayValue``: `(not set)` for optional settings.
    public var displayDefault: String {
        defaultValue.map(ValueText.display) ?? "(not set)"
    }
}
