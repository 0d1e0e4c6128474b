#if canImport(SwiftUI)
public import StoredSettings
public import SwiftUI
import Combine

/// A setting a SwiftUI view follows: the view is drawn again after every committed change to
/// the setting's key, whoever makes it, and `$name` is a `Binding` for a control.
///
/// Give it a setting of a ``StoredSettings/SettingsGroup``, its projected value:
///
/// ```swift
/// import StoredSettings
/// import StoredSettingsSwiftUI
/// import SwiftUI
///
/// enum Key: String, StorageKey { case autoReload }
///
/// struct AppSettings: SettingsGroup {
///     @Stored(Key.autoReload, default: false) var autoReload: Bool
/// }
///
/// struct AutoReloadToggle: View {
///     @LiveSetting(AppSettings(store: UserDefaultsStore.standard).$autoReload) var autoReload
///
///     var body: some View {
///         Toggle("Reload automatically", isOn: $autoReload)
///     }
/// }
/// ```
///
/// The view follows whatever the store's ``StoredSettings/Storable/changes()`` delivers: a
/// write through this wrapper, another view, a settings value or the store's own API, and for
/// a ``StoredSettings/FileStore`` another process. Reads and writes go to the setting itself
/// (``StoredSettings/Stored/wrappedValue``), so a write is committed, durably for a durable
/// store, before the setter returns; a failed write is reported to
/// ``StoredSettings/StorageErrorReporter`` and leaves the previous value. It runs on the
/// package's floor (iOS 16, macOS 13): it rests on `ObservableObject`, not on the Observation
/// framework.
///
/// Thread-safety: the main actor's, as every SwiftUI view property.
@MainActor
@propertyWrapper
public struct LiveSetting<Value: Sendable>: @preconcurrency DynamicProperty {
    // As Defaults' `@Default` (Sources/Defaults/SwiftUI.swift): a `@StateObject` that sends
    // `objectWillChange` from a main-actor task for each update of the key.
    @StateObject private var observer: SettingObserver<Value>
    private let setting: Stored<Value>

    /// A property that follows `setting`.
    public init(_ setting: Stored<Value>) {
        self.setting = setting
        _observer = StateObject(wrappedValue: SettingObserver(setting))
    }

    /// The setting's value now; setting it writes the setting.
    public var wrappedValue: Value {
        get { setting.wrappedValue }
        nonmutating set { setting.wrappedValue = newValue }
    }

    /// A binding to the setting, for controls (`Toggle("…", isOn: $autoReload)`).
    public var projectedValue: Binding<Value> {
        let setting = setting
        return Binding(get: { setting.wrappedValue }, set: { setting.wrappedValue = $0 })
    }

    /// Follows the setting the view now holds, when SwiftUI made the view again with another one.
    public mutating func update() {
        observer.follower.follow(setting)
    }
}

/// Sends `objectWillChange` on the main actor after each change of the setting it follows.
@MainActor
final class SettingObserver<Value: Sendable>: ObservableObject {
    let objectWillChange = ObservableObjectPublisher()
    // `lazy`: the follower's callback needs `self`, which exists once every stored property is set.
    private(set) lazy var follower = SettingFollower(setting) { [weak self] _ in
        Task { @MainActor [weak self] in self?.objectWillChange.send() }
    }
    private let setting: Stored<Value>

    init(_ setting: Stored<Value>) {
        self.setting = setting
        _ = follower
    }
}
#endif
