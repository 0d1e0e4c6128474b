import Foundation
import StoredSettings
import Testing

/// Which folder `FileStore(application:)` picks on this platform. Only the URLs are computed;
/// nothing is created, so the real home folder is never touched.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreApplicationFolderTests {
    private static let environment = ["XDG_CONFIG_HOME": "/x/config", "HOME": "/Users/ada"]

    @Test func theDefaultFileIsThePlatformsOwnFolder() throws {
        let url = try FileStore.defaultURL(application: "tool", environment: Self.environment)
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        #expect(url == (try FileStore.containerURL(application: "tool")))
        #else
        #expect(url.path == "/x/config/tool/settings.json")
        #endif
    }

    @Test func anAppBundleIsToldFromAToolsFolder() {
        #expect(FileStore.isApplicationBundle(URL(fileURLWithPath: "/Applications/Notes.app")))
        #expect(FileStore.isApplicationBundle(URL(fileURLWithPath: "/Users/ada/Build/Tool.APP")))
        #expect(!FileStore.isApplicationBundle(URL(fileURLWithPath: "/usr/local/bin")))
        #expect(
            !FileStore.isApplicationBundle(URL(fileURLWithPath: "/Applications/Notes.app/Contents/PlugIns/W.appex")))
    }

    @Test func anAppBundleOnMacOSUsesApplicationSupportAndAToolTheConfigurationFolder() throws {
        let app = URL(fileURLWithPath: "/Applications/Notes.app")
        let tool = URL(fileURLWithPath: "/usr/local/bin")
        let forApp = try FileStore.defaultURL(application: "tool", environment: Self.environment, bundleURL: app)
        let forTool = try FileStore.defaultURL(application: "tool", environment: Self.environment, bundleURL: tool)
        #if os(macOS) || os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        #expect(forApp == (try FileStore.containerURL(application: "tool")))
        #else
        #expect(forApp.path == "/x/config/tool/settings.json")
        #endif
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        #expect(forTool == (try FileStore.containerURL(application: "tool")))
        #else
        #expect(forTool.path == "/x/config/tool/settings.json")
        #endif
    }

    @Test func applicationSupportFileIsInFoundationsApplicationSupportFolder() throws {
        let folder = try #require(
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first)
        let url = try FileStore.containerURL(application: "tool", in: .applicationSupportDirectory)
        #expect(url.lastPathComponent == "settings.json")
        #expect(url.deletingLastPathComponent().lastPathComponent == "tool")
        #expect(
            url.deletingLastPathComponent().deletingLastPathComponent().standardizedFileURL
                == folder.standardizedFileURL)
    }

    @Test func tvOSAppsKeepTheirSettingsInTheirCachesFolderOthersInApplicationSupport() throws {
        #if os(tvOS)
        #expect(FileStore.containerDirectory == .cachesDirectory)
        #else
        #expect(FileStore.containerDirectory == .applicationSupportDirectory)
        #endif
        // The path tvOS takes, run here: the caches folder Foundation names.
        let caches = try #require(FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first)
        let url = try FileStore.containerURL(application: "tool", in: .cachesDirectory)
        #expect(url.standardizedFileURL == caches.appendingPathComponent("tool/settings.json").standardizedFileURL)
    }

    @Test(arguments: ["", ".", "..", "a/b", "../etc", "-rf", "a\u{0}b", "tab\there", "x..y"])
    func unsafeApplicationNamesAreRejectedForApplicationSupport(_ name: String) throws {
        let error = try #require(throws: StorageError.self) {
            try FileStore.containerURL(application: name)
        }
        #expect(error.code == .invalidKey)
    }
}
