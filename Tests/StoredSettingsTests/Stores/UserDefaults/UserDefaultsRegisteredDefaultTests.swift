import Foundation
import StoredSettings
import Testing

/// A value registered with `UserDefaults.register(defaults:)` is a default, not a stored value:
/// `hasStoredValue` stays false, and `reset()` brings back the `@Stored` default.
@Suite(.timeLimit(TestScale.hangGuard))
struct UserDefaultsRegisteredDefaultTests {
    @Test func registeredValueIsNotAStoredValueAndResetBringsBackTheStoredDefault() throws {
        let suite = try TemporarySuite()
        let store = suite.store
        // A name no other test uses: on Apple platforms the registration domain is the process's.
        let key = "registered-\(UUID().uuidString)"
        store.defaults.register(defaults: [key: 1])
        #expect(store.value(forKey: key) == nil)
        #expect(!store.keys().contains(key))
        let count = Stored(key, default: 5, store: store)
        #expect(!count.hasStoredValue)
        #expect(count.wrappedValue == 5)

        count.wrappedValue = 7
        #expect(count.hasStoredValue)
        #expect(count.wrappedValue == 7)

        count.reset()
        #expect(!count.hasStoredValue)
        #expect(count.wrappedValue == 5)
        // The registration itself is the app's and stays.
        #expect(store.defaults.integer(forKey: key) == 1)
    }

    @Test func removalUncoveringARegisteredValueDeliversTheRemoval() async throws {
        let suite = try TemporarySuite()
        let store = suite.store
        let key = "registered-\(UUID().uuidString)"
        store.defaults.register(defaults: [key: 1])
        var changes = store.changes().makeAsyncIterator()
        try store.setValue(.int(5), forKey: key)
        try store.setValue(nil, forKey: key)
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: store.defaults)
        try store.setValue(.int(7), forKey: key)
        #expect(await changes.next() == StoredChange(key: key, value: .int(5)))
        #expect(await changes.next() == StoredChange(key: key, value: nil))
        #expect(await changes.next() == StoredChange(key: key, value: .int(7)))
    }
}
