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
