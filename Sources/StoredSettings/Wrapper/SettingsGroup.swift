/// A type that groups ``Stored`` settings, so they can be created together on one store.
///
/// ```swift
/// enum Key: String, StorageKey { case autoReload, launchCount }
///
/// struct AppSettings: SettingsGroup {
///     @Stored(Key.autoReload, default: false) var autoReload: Bool
///     @Stored(Key.launchCount, default: 0) var launchCount: Int
/// }
///
/// let settings = AppSettings()                          // StoreContext.defaultStore
/// let testSettings = AppSettings(store: InMemoryStore()) // every @Stored uses this store
/// ```
///
/// Conformers need only an `init()`, which a struct of `@Stored` properties gets for free.
public protocol SettingsGroup {
    /// Creates the group; its settings take their store from ``StoreContext``.
    init()
}

extension SettingsGroup {
    /// Creates the group with every ``Stored`` setting inside it (that has no `store:` argument
    /// of its own) using `store`.
    ///
    /// - Parameter store: The store for the group's settings.
    public init(store: any Storable) {
        self = StoreContext.withStore(store) { Self() }
    }
}
