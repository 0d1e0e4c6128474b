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

    /// Apple's `UserDefaults.set` posts `didChangeNotification` on the writing thread before it
    /// returns, while the store holds its writers' lock; an app's observer may write the suite
    /// again from there. That write is made, and the observer's own write does not wait for
    /// the lock its thread holds.
    @Test func anObserverWritingTheSuiteFromTheNotificationOfAWriteIsNotBlocked() throws {
        let folder = try ScratchFolder()
        let name = folder.url.appendingPathComponent("suite").path
        let defaults = try #require(NotifyingDefaults(suiteName: name))
        defer { defaults.removePersistentDomain(forName: name) }
        let store = UserDefaultsStore(defaults, domainName: name)
        let observer = NotificationCenter.default.addObserver(
            forName: UserDefaults.didChangeNotification, object: defaults, queue: nil
        ) { _ in
            let source = store.value(forKey: "source")
            if store.value(forKey: "mirror") != source { try? store.setValue(source, forKey: "mirror") }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        try store.setValue(.int(3), forKey: "source")
        #expect(store.value(forKey: "mirror") == .int(3))

        try store.update(forKey: "source") { $0 = .int(4) }
        #expect(store.value(forKey: "mirror") == .int(4))
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

/// `UserDefaults` that posts `didChangeNotification` from inside each change, on the writing
/// thread, as Foundation on Apple platforms does.
private final class NotifyingDefaults: UserDefaults {
    override func set(_ value: Any?, forKey defaultName: String) {
        super.set(value, forKey: defaultName)
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: self)
    }

    override func removeObject(forKey defaultName: String) {
        super.removeObject(forKey: defaultName)
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: self)
    }
}
