public import StoredSettings

extension SettingsGroup {
    /// Describes every `Stored` setting of the group, in declaration order: key, Swift type,
    /// default, current value, origin and help sentence.
    ///
    /// ```swift
    /// let settings = AppSettings(store: store)
    /// for setting in settings.settingDescriptions() {
    ///     print("\(setting.key) = \(setting.displayValue)  (\(setting.origin))")
    /// }
    /// ```
    ///
    /// The settings are found with `Mirror`: stored properties declared with `@Stored`.
    /// Secret values are `<redacted>`. A stored value that does not decode is described with
    /// its ``SettingDescription/problem`` instead of a value; nothing is reported or written.
    ///
    /// - Returns: One description per setting.
    /// - Complexity: O(n) reads of the settings' stores.
    public func settingDescriptions() -> [SettingDescription] {
        storedSettings().map { name, setting in describe(setting, propertyName: name) }
    }

    /// The group's settings with their property names, in declaration order.
    package func storedSettings() -> [(name: String, setting: any AnyStoredSetting)] {
        Mirror(reflecting: self).children.compactMap { child in
            guard let setting = child.value as? any AnyStoredSetting else { return nil }
            var name = child.label ?? setting.key
            if name.hasPrefix("_") { name.removeFirst() }
            return (name, setting)
        }
    }
}

/// The description of one setting, with secrets redacted.
package func describe(_ setting: any AnyStoredSetting, propertyName: String) -> SettingDescription {
    let store = setting.settingStore
    let redacted = StoredValue.string(ValueText.redacted)
    var value: StoredValue?
    var problem: StorageError?
    do {
        value = try setting.currentStoredValue() ?? setting.defaultStoredValue
    } catch {
        problem = StorageError(.dataCorrupted, wrapping: error, key: setting.key)
    }
    let defaultValue = setting.defaultStoredValue
    return SettingDescription(
        key: setting.key,
        propertyName: propertyName,
        typeName: setting.declaredTypeName,
        defaultValue: setting.isSecret ? defaultValue.map { _ in redacted } : defaultValue,
        value: setting.isSecret ? value.map { _ in redacted } : value,
        origin: store.describedOrigin(forKey: setting.key) ?? "default",
        help: setting.help,
        isSecret: setting.isSecret,
        problem: problem
    )
}
