import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

// The code of the "Getting started" article and the README, so the compiler checks it. Only
// the store differs: the article uses the default store, the test a fresh one.

private enum Key: String, StorageKey {
    case autoReload, theme, lastOpened, launchCount
}

private enum Theme: String, StoredValueConvertible { case system, light, dark }

private struct AppSettings: SettingsGroup {
    @Stored(Key.autoReload, default: false) var autoReload: Bool
    @Stored(Key.theme, default: .system) var theme: Theme
    @Stored(Key.lastOpened) var lastOpened: Date?
    @Stored(Key.launchCount, default: 0) var launchCount: Int
}

@Suite(.timeLimit(TestScale.hangGuard))
struct GettingStartedExampleTests {
    @Test func articleReadAndWriteSectionBehavesAsDescribed() throws {
        let settings = StoreContext.withStore(InMemoryStore()) { AppSettings() }
        if settings.autoReload { Issue.record("autoReload defaults to false") }
        settings.theme = .dark
        settings.lastOpened = Date()
        #expect(settings.lastOpened != nil)
        settings.lastOpened = nil
        #expect(settings.$lastOpened.hasStoredValue == false)
        settings.$theme.reset()
        #expect(settings.theme == .system)

        let count = try settings.$launchCount.load()
        try settings.$launchCount.save(count + 1)
        try settings.$launchCount.update { $0 += 1 }
        #expect(settings.launchCount == 2)
    }

    @Test func readmeExampleWorksOnAFileStore() throws {
        let directory = try TemporaryFileStore()
        let settings = AppSettings(store: try FileStore(url: directory.url))
        settings.theme = .dark
        try settings.$launchCount.update { $0 += 1 }
        let relaunched = AppSettings(store: try directory.reopened())
        #expect(relaunched.theme == .dark)
        #expect(relaunched.launchCount == 1)
    }

    // The example of "A fresh store per test" in the "Testing code that uses settings" article.
    @Test func countsLaunches() throws {
        let store = try TemporaryFileStore()
        try AppSettings(store: store).$launchCount.update { $0 += 1 }
        #expect(AppSettings(store: try store.reopened()).launchCount == 1)
    }
}
