package import StoredSettings

extension SettingsGroup {
    /// What the layers need to know about each setting the type declares, as plain data.
    /// Derived once per type in a process (see ``declaredSettings()``).
    package static func declarations() -> [SettingDeclaration] {
        derived().declarations
    }

    /// The settings the type declares, with their property names, found on an instance over a
    /// `VolatileStore` (keys, types and defaults, never stored values). Derived once per type.
    package static func declaredSettings() -> [(name: String, setting: any AnyStoredSetting)] {
        derived().settings
    }

    private static func derived() -> DerivedGroup {
        derivedGroups.value(forKey: ObjectIdentifier(Self.self)) {
            let settings = Self(store: VolatileStore()).storedSettings()
            return DerivedGroup(settings: settings, declarations: settings.map { $0.setting.declaration })
        }
    }
}

/// What ``SettingsGroup/declarations()`` and ``SettingsGroup/declaredSettings()`` derive from
/// one group type.
private struct DerivedGroup: Sendable {
    let settings: [(name: String, setting: any AnyStoredSetting)]
    let declarations: [SettingDeclaration]
}

private let derivedGroups = Lock<[ObjectIdentifier: DerivedGroup]>([:])

extension AnyStoredSetting {
    /// The setting as plain data for the layers: a structure's fields are those of its
    /// default's stored form (an optional structure has no default, so no known fields).
    package var declaration: SettingDeclaration {
        let defaultValue = defaultStoredValue
        let shape: SettingDeclaration.Shape
        if isBoolean {
            shape = .boolean
        } else if isList {
            shape = .list
        } else if !isDictionary, case .dictionary(let fields)? = defaultValue {
            shape = .structure(fields: fields.mapValues(SettingDeclaration.Shape.init(fieldValue:)))
        } else {
            shape = .other
        }
        return SettingDeclaration(key: key, shape: shape, defaultValue: defaultValue, isSecret: isSecret)
    }
}

extension SettingDeclaration.Shape {
    /// The shape of a field inside a structure, from its value in the default.
    init(fieldValue: StoredValue) {
        switch fieldValue {
        case .bool: self = .boolean
        case .array: self = .list
        case .dictionary(let fields): self = .structure(fields: fields.mapValues(Self.init(fieldValue:)))
        default: self = .other
        }
    }
}
