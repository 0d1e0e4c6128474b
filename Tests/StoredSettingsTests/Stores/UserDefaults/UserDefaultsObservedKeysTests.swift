import Foundation
import StoredSettings
import Testing

/// A `UserDefaults.didChangeNotification` makes a suite compare only the keys its observers
/// follow: with observers of single keys only (every `@Stored` setting's `updates`), it reads
/// those keys and never converts the whole `dictionaryRepresentation()`. The notification is
/// posted the way Apple's Foundation posts it (see ``UserDefaultsWatcherTests``).
@Suite(.timeLimit(TestScale.hangGuard))
struct UserDefaultsObservedKeysTests {
    @Test func observersOfOneKeyMakeANotificationReadOnlyThatKey() async throws {
        let suite = try TemporarySuite()
        let store = suite.store
        let subscription = store.subscription(readingValueForKey: "a")
        defer { subscription.end() }
        var changes = subscription.changes.makeAsyncIterator()
        let reads = store.changeNotificationReadCount

        store.defaults.set(5, forKey: "a")
        store.defaults.set(6, forKey: "unfollowed")
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: store.defaults)

        #expect(await changes.next() == StoredChange(key: "a", value: .int(5)))
        #expect(store.changeNotificationReadCount == reads, "the notification converted the whole domain")
    }

    @Test func anObserverOfEveryKeyJoiningLaterGetsOnlyLaterChanges() async throws {
        let suite = try TemporarySuite()
        let store = suite.store
        let subscription = store.subscription(readingValueForKey: "a")
        defer { subscription.end() }
        store.defaults.set(1, forKey: "before")
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: store.defaults)

        var every = store.changes().makeAsyncIterator()
        store.defaults.set(2, forKey: "after")
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: store.defaults)
        #expect(await every.next() == StoredChange(key: "after", value: .int(2)))
    }
}
