extension LayeredStore {
    /// Keys the library itself keeps in settings files beside the declared settings (such as
    /// the version of the migrations that have run): never reported as unknown.
    ///
    /// Add a key here when a part of the library starts storing one. `storedSettingsSchemaVersion`
    /// is `MigratingStore.versionKey` (StoredSettingsMigrations, which this module cannot name).
    package static let reservedKeys: Set<String> = ["storedSettingsSchemaVersion"]
}
