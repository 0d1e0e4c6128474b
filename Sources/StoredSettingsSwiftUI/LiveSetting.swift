#if canImport(SwiftUI)
public import StoredSettings
public import SwiftUI
import Combine

/// A setting a SwiftUI view follows: the view is drawn again after every committed change to
/// the setting's key, whoever makes it, and `$name` is a `Binding` for a control.
///
/// Give it a setting of a ``StoredSettings/SettingsGroup``, its projected value. From the
/// example app, `Examples/settings-screen` in the package, a group:
///
/// ```swift
/// struct ScreenSettings: SettingsGroup {
///     @Stored(ScreenKey.autoReload, default: true) var autoReload: Bool
///     @Stored(ScreenKey.theme, default: .system) var theme: Theme
///     @Stored(ScreenKey.displayName, default: "") var displayName: String
/// }
/// ```
///
/// and a screen that edits it, each control bound to a setting:
///
/// ```swift
/// struct SettingsScreen: View {
///     @LiveSetting(ScreenSettings().$autoReload) var autoReload
///     @LiveSetting(ScreenSettings().$theme) var theme
///     @LiveSetting(ScreenSettings().$displayName) var displayName
/// ```
///
/// A view that follows a setting another process writes to a ``StoredSettings/FileStore``'s
/// file (for example `stored write <file> status -string Synced`) is the same:
///
/// ```swift
/// struct StatusLine: View {
///     @LiveSetting<String> var status: String
///
///     init(store: FileStore) {
///         _status = LiveSetting(StatusSettings(store: store).$status)
///     }
///
///     var body: some View {
///         Text("Status: \(status)")
///     }
/// }
/// ```
///
/// The view follows its setting's key alone (``StoredSettings/ChangeSnapshotting``), so it sees
/// every change of the key the store observes: a write through this wrapper, another view, a
/// settings value or the store's own API, for a ``StoredSettings/FileStore`` another process,
/// and on Apple platforms another process (a widget, an app extension) writing a
/// ``StoredSettings/UserDefaultsStore`` key, heard by key-value observation of that key. Reads
/// go to the setting itself. A write never waits for the medium: for a
/// ``StoredSettings/FileStore`` it is in memory, seen by every reader and view, when the setter
/// returns, and the store's background writer writes the file, steps of a slider together
/// (``StoredSettings/Stored/saveWithoutWaiting(_:)``; a ``StoredSettings/FileStore`` used
/// directly, not through a layered or migrating store). So the change is not on disk when the
/// setter returns: call ``StoredSettings/FileStore/flush()`` before the process exits. A failed
/// write is reported to ``StoredSettings/StorageErrorReporter``. It runs on the
/// package's floor (iOS 16, macOS 13): it rests on `ObservableObject`, not on the Observation
/// framework. From iOS 17 and macOS 14 a view whose `body` reads a setting is drawn again after
/// each change without it, since every `@Stored` read registers with the Observation framework;
/// it stays for the systems before those, and for its `Binding`.
///
/// Thread-safety: the main actor's, as every SwiftUI view property.
@MainActor
@propertyWrapper
public struct LiveSetting<Value: Sendable>: @preconcurrency DynamicProperty {
    // As Defaults' `@Default` (Sources/Defaults/SwiftUI.swift): a `@StateObject` whose
    // `objectWillChange` fires from a main-actor task for each update of the key.
    @StateObject private var observer: SettingObserver<Value>
    private let setting: Stored<Value>

    /// A property that follows `setting`.
    public init(_ setting: Stored<Value>) {
        self.setting = setting
        _observer = StateObject(wrappedValue: SettingObserver(setting))
    }

    /// The setting's value now; setting it writes the setting without waiting for the medium
    /// (``StoredSettings/Stored/saveWithoutWaiting(_:)``).
    public var wrappedValue: Value {
        get { setting.wrappedValue }
        nonmutating set { Self.save(newValue, to: setting) }
    }

    /// A binding to the setting, for controls (`Toggle("…", isOn: $autoReload)`); it writes as
    /// ``wrappedValue`` does.
    public var projectedValue: Binding<Value> {
        let setting = setting
        return Binding(get: { setting.wrappedValue }, set: { Self.save($0, to: setting) })
    }

    /// Writes from the main actor never wait for a lock, a sync or another process; a failure
    /// goes to ``StoredSettings/StorageErrorReporter``.
    private static func save(_ value: Value, to setting: Stored<Value>) {
        do {
            try setting.saveWithoutWaiting(value)
        } catch let error as StorageError {
            StorageErrorReporter.report(error)
        } catch {
            StorageErrorReporter.report(StorageError(.io, wrapping: error, location: setting.store.location))
        }
    }

    /// Follows the setting the view now holds, when SwiftUI made the view again with another one.
    public mutating func update() {
        observer.follower.follow(setting)
    }
}

/// Sends `objectWillChange` on the main actor after each change of the setting it follows.
///
/// Its `objectWillChange` is the one `ObservableObject` synthesizes, which announces each change
/// of `changes`: a publisher declared here would be main-actor isolated, since
/// `ObservableObjectPublisher` is not `Sendable`, and could not satisfy the protocol's
/// nonisolated requirement.
@MainActor
final class SettingObserver<Value: Sendable>: ObservableObject {
    /// How many changes of the setting were seen; only its changes matter.
    @Published private var changes = 0
    // `lazy`: the follower's callback needs `self`, which exists once every stored property is set.
    private(set) lazy var follower = SettingFollower(setting) { [weak self] _ in
        Task { @MainActor [weak self] in self?.changes &+= 1 }
    }
    private let setting: Stored<Value>

    init(_ setting: Stored<Value>) {
        self.setting = setting
        _ = follower
    }
}
#endif
