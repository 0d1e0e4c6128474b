import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// A value registered with `UserDefaults.register(defaults:)` reads as `UserDefaults` reads it:
/// below a stored value and above the `@Stored` default, yet it is not a stored value, so
/// `hasStoredValue` stays false and `reset()` removes only what was stored.
@Suite(.timeLimit(TestScale.hangGuard))
struct UserDefaultsRegisteredDefaultTests {
    /// A key no other test uses: registered defaults belong to the whole process (on Linux to
    /// every instance, on Apple platforms to the registration domain).
    private func freshKey() -> String { "registered-\(UUID().uuidString)" }

    @Test func registeredValueReadsBelowTheStoredValueAndAboveTheSettingDefault() throws {
        let suite = try TemporarySuite()
        let store = suite.store
        let key = freshKey()
        store.defaults.register(defaults: [key: 5])
        #expect(store.value(forKey: key) == nil)
        #expect(store.registeredValue(forKey: key) == .int(5))
        #expect(!store.keys().contains(key))
        let limit = Stored(key, default: 1, store: store)
        #expect(!limit.hasStoredValue)
        #expect(limit.wrappedValue == 5)
        #expect(try limit.load() == 5)

        limit.wrappedValue = 7
        #expect(limit.hasStoredValue)
        #expect(limit.wrappedValue == 7)
        #expect(store.defaults.persistentDomain(forName: suite.name)?[key] as? Int == 7)

        limit.reset()
        #expect(!limit.hasStoredValue)
        #expect(limit.wrappedValue == 5)
        #expect(store.defaults.integer(forKey: key) == 5)
    }

    @Test func updatesAndInPlaceChangesStartFromTheRegisteredValue() throws {
        let suite = try TemporarySuite()
        let store = suite.store
        let key = freshKey()
        store.defaults.register(defaults: [key: 5])
        let limit = Stored(key, default: 1, store: store)
        // Leaving the registered value as it is writes nothing.
        try limit.update { _ in }
        #expect(!limit.hasStoredValue)
        try limit.update { $0 += 1 }
        #expect(store.value(forKey: key) == .int(6))
        limit.reset()
        limit.wrappedValue += 10
        #expect(store.value(forKey: key) == .int(15))
    }

    @Test func registeredValueOfTheWrongTypeFallsBackToTheSettingDefaultAndIsReported() throws {
        let suite = try TemporarySuite()
        let store = suite.store
        let key = freshKey()
        store.defaults.register(defaults: [key: "many"])
        let limit = Stored(key, default: 1, store: store)
        let reported = ReportedErrors()
        #expect(reported.capture { limit.wrappedValue } == 1)
        #expect(reported.codes == [.typeMismatch])
        #expect(reported.errors.first?.key == key)
        let error = #expect(throws: StorageError.self) { try limit.load() }
        #expect(error?.code == .typeMismatch)
        #expect(!limit.hasStoredValue)
    }

    @Test func updatesYieldTheRegisteredValueWhenTheStoredOneIsRemoved() async throws {
        let suite = try TemporarySuite()
        let store = suite.store
        let key = freshKey()
        store.defaults.register(defaults: [key: 5])
        let limit = Stored(key, default: 1, store: store)
        var values = limit.updates.makeAsyncIterator()
        #expect(await values.next() == 5)
        limit.wrappedValue = 7
        #expect(await values.next() == 7)
        limit.reset()
        #expect(await values.next() == 5)
    }

    @Test func removalUncoveringARegisteredValueDeliversTheRemoval() async throws {
        let suite = try TemporarySuite()
        let store = suite.store
        let key = freshKey()
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
