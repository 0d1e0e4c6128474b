#if canImport(SwiftUI)
import StoredSettings
import StoredSettingsSwiftUI
import SwiftUI

/// The settings screen: a toggle, a picker and a text field, each bound to a setting, and a
/// status line another process changes.
struct SettingsScreen: View {
    @LiveSetting(ScreenSettings().$autoReload) var autoReload
    @LiveSetting(ScreenSettings().$theme) var theme
    @LiveSetting(ScreenSettings().$displayName) var displayName

    var body: some View {
        Form {
            Toggle("Reload automatically", isOn: $autoReload)
            Picker("Theme", selection: $theme) {
                ForEach(Theme.allCases, id: \.self) { theme in
                    Text(theme.rawValue).tag(theme)
                }
            }
            TextField("Display name", text: $displayName)
            switch statusFile {
            case .success(let store): StatusLine(store: store)
            case .failure(let error): Text("The status file cannot be opened: \(error)")
            }
        }
    }
}

/// Shows the status another process writes to the settings file, and follows each change.
struct StatusLine: View {
    @LiveSetting<String> var status: String

    init(store: FileStore) {
        _status = LiveSetting(StatusSettings(store: store).$status)
    }

    var body: some View {
        Text("Status: \(status)")
    }
}
#endif
