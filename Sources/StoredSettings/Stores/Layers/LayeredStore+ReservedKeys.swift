extension LayeredStore {
    /// Keys the library itself keeps in settings files beside the declared settings (such as
    /// the version of the migrations that have run): never reported as unknown.
    ///
    /// Add a key here when a part of the library starts storing one.
    package static let reservedKeys: Set<String> = [MigratingStore.versionKey]
}
