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
/// Conformers need only an `init()`, which a struct of `@Stored` properties gets for free. A
/// `public` group in a library target must declare it, since the free one is internal:
///
/// ```swift
/// public struct SharedSettings: SettingsGroup {
///     @Stored("theme", default: "system") public var theme: String
///     public init() {}
/// }
/// ```
///
/// A group is `Sendable` (every copy reads and writes the same store); stored properties a
/// conformer adds must be `Sendable` too.
public protocol SettingsGroup: Sendable {
    /// Creates the group; its settings take their store from ``StoreContext``.
    init()
}

extension SettingsGroup {
    /// Creates the group with every ``Stored`` setting inside it that has no `store:` argument
    /// using `store`.
    ///
    /// The binding covers what `init()` creates on its own thread, nested groups included, not
    /// tasks it starts; ``StoreContext/withStore(_:operation:)`` covers those too.
    ///
    /// - Parameter store: The store for the group's settings.
    public init(store: any Storable) {
        self = StoreContext.withThreadStore(store) { Self() }
    }
}
