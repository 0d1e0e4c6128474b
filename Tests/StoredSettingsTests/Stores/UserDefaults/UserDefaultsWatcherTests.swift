import Foundation
import StoredSettings
import Testing

/// What `UserDefaults.didChangeNotification` makes a `UserDefaultsStore` do. Foundation on
/// Apple platforms posts it for every change of a `UserDefaults` instance, with that instance
/// as the object; Foundation on Linux posts none, so these tests post it the way Apple's does
/// and the same code runs on both. Suites live in temporary folders (``TemporarySuite``).
@Suite(.timeLimit(TestScale.hangGuard))
struct UserDefaultsWatcherTests {
    @Test func aChangeInOneSuiteDoesNotMakeAnotherSuiteReadItsDefaults() async throws {
        let (suiteA, suiteB) = (try TemporarySuite(), try TemporarySuite())
        let (a, b) = (suiteA.store, suiteB.store)
        var changesOfA = a.changes().makeAsyncIterator()
        _ = b.changes()
        let readsOfB = b.changeNotificationReadCount

        a.defaults.set(7, forKey: "direct")
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: a.defaults)

        #expect(await changesOfA.next() == StoredChange(key: "direct", value: .int(7)))
        #expect(b.changeNotificationReadCount == readsOfB, "suite B read its defaults for a change of suite A")
        #expect(a.changeNotificationReadCount > 0)
    }

    @Test func aSuiteNoStoreUsesIsReleased() throws {
        let folder = try ScratchFolder()
        let name = folder.url.appendingPathComponent("suite").path
        do {
            let store = try UserDefaultsStore(suiteAtPath: name)
            _ = store.changes()
            #expect(UserDefaultsStore.isSuiteInUse(name))
            store.defaults.removePersistentDomain(forName: name)
        }
        #expect(!UserDefaultsStore.isSuiteInUse(name))
    }
}

/// What a store's change stream says when a removal uncovers a registered default: the value
/// reads see from then on, once, and nothing that contradicts it.
@Suite(.timeLimit(TestScale.hangGuard))
struct UserDefaultsRegisteredValueChangeTests {
    @Test func removalUncoveringARegisteredDefaultDeliversWhatReadsSee() async throws {
        let suite = try TemporarySuite()
        let store = suite.store
        // A name no other test uses: on Apple platforms the registration domain is the process's.
        let k = "registered-\(UUID().uuidString)"
        store.defaults.register(defaults: [k: 1])
        var changes = store.changes().makeAsyncIterator()

        try store.setValue(.int(5), forKey: k)
        try store.setValue(nil, forKey: k)
        #expect(store.value(forKey: k) == .int(1))
        // The same sequence whether or not the platform posts a change notification per write.
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: store.defaults)
        try store.setValue(.int(7), forKey: k)

        #expect(await changes.next() == StoredChange(key: k, value: .int(5)))
        #expect(await changes.next() == StoredChange(key: k, value: .int(1)))
        #expect(await changes.next() == StoredChange(key: k, value: .int(7)))
    }
}
