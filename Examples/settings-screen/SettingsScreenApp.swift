#if canImport(SwiftUI)
import SwiftUI

/// An app with one window, the settings screen.
@main
struct SettingsScreenApp: App {
    var body: some Scene {
        WindowGroup {
            SettingsScreen()
        }
    }
}
#else
import StoredSettings

/// Where SwiftUI does not exist, the settings the screen would show.
@main
enum SettingsScreenApp {
    static func main() {
        let settings = ScreenSettings()
        print("Reload automatically: \(settings.autoReload)")
        print("Theme: \(settings.theme.rawValue)")
        print("Display name: \(settings.displayName)")
        switch statusFile {
        case .success(let store): print("Status: \(StatusSettings(store: store).status)")
        case .failure(let error): print("The status file cannot be opened: \(error)")
        }
    }
}
#endif
