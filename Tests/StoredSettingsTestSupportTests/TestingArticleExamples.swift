import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

// The code of the "Testing code that uses settings" article, so the compiler checks it.

private enum Key: String, StorageKey { case theme, launchCount }
private enum Theme: String, StoredValueConvertible { case system, light, dark }

private struct AppSettings: SettingsGroup {
    @Stored(Key.theme, default: .system) var theme: Theme
    @Stored(Key.launchCount, default: 0) var launchCount: Int
}

@Suite(.timeLimit(.hangGuard))
struct TestingArticleExamples {
    @Test func showsTheSavedTheme() {
        let settings = AppSettings(store: InMemoryStore(["theme": .string("dark")]))
        #expect(settings.theme == .dark)
    }

    @Test func whatTheCodeReadAndWrote() {
        let spy = SpyStore()
        let settings = AppSettings(store: spy)
        settings.launchCount = 3
        #expect(spy.writes == [.setValue(.int(3), key: "launchCount")])
    }

    @Test func writesThatFailAndReportedErrors() {
        let store = FailingStore(wrapping: InMemoryStore(["theme": .string("dark")]))
        store.fail(.setValue, forKey: "theme", with: StorageError(.io, message: "disk full"))
        let settings = AppSettings(store: store)
        settings.theme = .light // reported, not written
        #expect(settings.theme == .dark)

        let reported = ReportedErrors()
        reported.capture { settings.theme = .light }
        #expect(reported.codes == [.io])
    }

    @Test func changesAndObservation() async {
        let settings = AppSettings(store: InMemoryStore())
        var updates = settings.$launchCount.updates.makeAsyncIterator()
        #expect(await updates.next() == 0)
        settings.launchCount = 1
        #expect(await updates.next() == 1)
    }
}
