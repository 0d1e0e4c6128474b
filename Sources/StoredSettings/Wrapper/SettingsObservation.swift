public import Observation

/// Connects ``Stored`` settings to the Observation framework, so an `@Observable` model can
/// expose settings and SwiftUI views or `withObservationTracking` see every change, whoever
/// makes it.
///
/// The `@Observable` macro cannot take property wrappers, so keep the settings out of its
/// reach with `@ObservationIgnored`, and expose each one as a computed property that reads
/// through ``track(_:)``:
///
/// ```swift
/// import Observation
///
/// @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
/// @Observable
/// final class SettingsModel {
///     @ObservationIgnored private let settings: AppSettings
///     @ObservationIgnored private let observation = SettingsObservation()
///
///     init(store: any Storable) {
///         settings = AppSettings(store: store)
///     }
///
///     var autoReload: Bool {
///         get { observation.track(settings.$autoReload) }
///         set { settings.autoReload = newValue }
///     }
/// }
/// ```
///
/// ``track(_:)`` registers the read with the Observation framework and subscribes, once per
/// store, to the store's ``Storable/changes()``. Every committed change to a tracked key then
/// counts as a mutation of the model: a write through this model, through another settings
/// value or wrapper, through the store's own API, or (for `FileStore`) by another process.
/// Writes of the value a key already holds are not changes and notify nobody.
///
/// Notification follows the commit: observers (`onChange` of `withObservationTracking`)
/// are called shortly after the write, from a task that consumes the store's changes, not
/// inside the setter and never under a store's lock. By the time they are called the new
/// value is readable. To wait for it in a test, await the `onChange` call rather than
/// checking right after the write.
///
/// The subscriptions end when the `SettingsObservation` is released (with its model).
///
/// Availability: the Observation framework exists from macOS 14, iOS 17, tvOS 17, watchOS 10
/// and visionOS 1, later than the package's floor (macOS 13, iOS 16, tvOS 16, watchOS 9), so
/// this type, and a model using it, carries the same `@available` attribute; the rest of the
/// package runs on the floor.
///
/// Thread-safety: every member may be used from any thread or task.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
public final class SettingsObservation: Observable, Sendable {
    /// A key of one store, as the Observation framework tracks it.
    package struct TrackedKey: Hashable, Sendable {
        let store: ObjectIdentifier
        let key: String
    }

    private struct Relay {
        /// Kept so the store, and so its identifier, outlives the relay.
        let store: any Storable
        let task: Task<Void, Never>
    }

    private let registrar = ObservationRegistrar()
    private let relays = Lock<[ObjectIdentifier: Relay]>([:])

    /// Creates an observation with no tracked settings yet.
    public init() {}

    deinit {
        for relay in relays.withLock({ Array($0.values) }) { relay.task.cancel() }
    }

    /// The current value of `setting`, with the read registered for observation.
    ///
    /// Call it from the getter of a computed property of an `@Observable` model. Code that
    /// observes the property (a SwiftUI view, `withObservationTracking`) is then told when the
    /// setting's key changes in its store.
    ///
    /// - Parameter setting: The projected value of a `@Stored` property: `settings.$autoReload`.
    /// - Returns: `setting.wrappedValue`: the stored value, or the default (reporting
    ///   undecodable data to ``StorageErrorReporter``).
    public func track<Value>(_ setting: Stored<Value>) -> Value {
        access(setting)
        return setting.wrappedValue
    }

    /// Registers a read of `setting` for observation without reading it: for getters that
    /// read the setting themselves, such as one that calls `load()`.
    ///
    /// - Parameter setting: The projected value of a `@Stored` property.
    public func access<Value>(_ setting: Stored<Value>) {
        let store = setting.store
        startRelay(for: store)
        registrar.access(self, keyPath: \.[TrackedKey(store: ObjectIdentifier(store), key: setting.key)])
    }

    /// The anchor of the key paths the Observation framework tracks, one per store and key.
    package subscript(key: TrackedKey) -> Int { 0 }

    /// Subscribes to `store`'s changes once, turning each into a mutation of its key.
    private func startRelay(for store: any Storable) {
        let id = ObjectIdentifier(store)
        relays.withLock { relays in
            guard relays[id] == nil else { return }
            // Subscribed here, before the first read is registered, so no change is missed.
            let changes = store.changes()
            let task = Task { [weak self] in
                for await change in changes {
                    guard let self else { return }
                    self.registrar.withMutation(of: self, keyPath: \.[TrackedKey(store: id, key: change.key)]) {}
                }
            }
            relays[id] = Relay(store: store, task: task)
        }
    }
}
