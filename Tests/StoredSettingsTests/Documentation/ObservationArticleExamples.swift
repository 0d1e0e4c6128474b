import Foundation
import Observation
import StoredSettings
import StoredSettingsTestSupport
import Testing

// The code of the "Observing settings" article, so the compiler checks it and the tests check
// what its comments claim. (The @Observable model is in ObservationFrameworkTests.swift.)

private enum Key: String, StorageKey { case autoReload, launchCount }

private struct AppSettings: SettingsGroup {
    @Stored(Key.autoReload, default: false) var autoReload: Bool
    @Stored(Key.launchCount, default: 0) var launchCount: Int
}

@Suite(.timeLimit(TestScale.hangGuard))
struct ObservationArticleExamples {
    @Test func updatesOfOneSetting() async {
        let store = InMemoryStore()
        let printed = AwaitableState<[String]>([])
        let settings = AppSettings(store: store)
        let idle = store.subscriberCount // the store's one subscription for the Observation framework
        let watcher = Task {
            for await enabled in settings.$autoReload.updates {
                printed.withLock { $0.append("autoReload is now \(enabled)") }
            }
        }
        #expect(await printed.wait { $0.count == 1 } == ["autoReload is now false"])
        settings.autoReload = true // prints "autoReload is now true"
        #expect(await printed.wait { $0.count == 2 } == ["autoReload is now false", "autoReload is now true"])
        watcher.cancel() // releases the subscription
        await store.waitForSubscriberCount(idle)
        #expect(store.subscriberCount == idle)
    }

    @Test func loopBodyMayWriteTheObservedSetting() async {
        let settings = AppSettings(store: InMemoryStore(["launchCount": .int(11)]))
        var seen: [Int] = []
        for await count in settings.$launchCount.updates {
            seen.append(count)
            if count > 10 {
                settings.launchCount = 0 // yielded to this loop in turn, as 0
            } else {
                break
            }
        }
        #expect(seen == [11, 0])
    }

    @Test func everyChangeOfAStore() async throws {
        let store = InMemoryStore()
        let changes = store.changes()
        try store.setValue(.bool(true), forKey: "autoReload")
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == StoredChange(key: "autoReload", value: .bool(true)))
    }

    @Test func atomicIncrement() throws {
        let settings = AppSettings(store: InMemoryStore())
        try settings.$launchCount.update { $0 += 1 }
        #expect(settings.launchCount == 1)
    }
}
