import StoredSettings

/// The keys of the example app's settings.
enum ScreenKey: String, StorageKey {
    case autoReload, theme, displayName, status
}

/// The app's colour scheme, a picker's choices.
enum Theme: String, CaseIterable, Sendable, StoredValueConvertible {
    case system, light, dark
}

/// What the settings screen edits; kept in the standard store (UserDefaults on Apple platforms).
struct ScreenSettings: SettingsGroup {
    @Stored(ScreenKey.autoReload, default: true) var autoReload: Bool
    @Stored(ScreenKey.theme, default: .system) var theme: Theme
    @Stored(ScreenKey.displayName, default: "") var displayName: String
}

/// What another process reports, in a settings file it writes and the app follows.
struct StatusSettings: SettingsGroup {
    @Stored(ScreenKey.status, default: "Not synced yet") var status: String
}

/// The file the status line follows, in the app's settings folder; another process writes it,
/// for example `stored write <path> status -string Synced`.
let statusFile = Result { try FileStore(application: "settings-screen") }
