import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

private enum Key: String, StorageKey { case launchCount, theme }

private struct SpiedSettings: SettingsGroup {
    @Stored(Key.launchCount, default: 0) var launchCount: Int
    @Stored(Key.theme) var theme: String?
}

@Suite(.timeLimit(.hangGuard))
struct SpyStoreTests {
    @Test func recordsEveryKindOfCallInOrder() async throws {
        let spy = SpyStore()
        _ = spy.value(forKey: "a")
        try spy.setValue(.int(1), forKey: "a")
        _ = spy.keys()
        try spy.update(forKey: "a") { $0 = .int(2) }
        try spy.setValue(nil, forKey: "a")
        _ = spy.changes()

        #expect(
            spy.calls == [
                .value(key: "a"),
                .setValue(.int(1), key: "a"),
                .keys,
                .update(key: "a"),
                .setValue(nil, key: "a"),
                .changes,
            ])
    }

    @Test func recordsWhatSettingsDo() throws {
        let spy = SpyStore()
        let settings = SpiedSettings(store: spy)
        settings.launchCount = 3
        _ = settings.launchCount
        try settings.$launchCount.update { $0 += 1 }
        settings.$theme.reset()

        // Making a setting follows its key, for the Observation framework (on Linux and from
        // macOS 14 and iOS 17).
        #expect(
            spy.calls == [
                .subscription(key: "launchCount"),
                .subscription(key: "theme"),
                .setValue(.int(3), key: "launchCount"),
                .value(key: "launchCount"),
                .update(key: "launchCount"),
                .setValue(nil, key: "theme"),
            ])
        #expect(spy.writes.count == 3)
        #expect(spy.calls(forKey: "theme") == [.subscription(key: "theme"), .setValue(nil, key: "theme")])
    }

    @Test func forwardsToTheWrappedStore() throws {
        let inner = InMemoryStore(["seeded": .bool(true)])
        let spy = SpyStore(wrapping: inner)
        try spy.setValue(.string("x"), forKey: "k")
        #expect(inner.values == ["seeded": .bool(true), "k": .string("x")])
        #expect(spy.value(forKey: "seeded") == .bool(true))
        #expect(spy.location == "memory")
    }

    @Test func recordsFailedCallsToo() {
        let spy = SpyStore()
        #expect(throws: StorageError.self) { try spy.setValue(.int(1), forKey: "") }
        #expect(spy.calls == [.setValue(.int(1), key: "")])
        #expect(spy.value(forKey: "") == nil)
    }

    @Test func everyReferenceSharesOneLog() throws {
        let spy = SpyStore()
        let copy = spy
        let settings = SpiedSettings(store: copy)
        settings.launchCount = 1
        let other = SpiedSettings(store: spy)
        _ = other.launchCount
        // Each key is followed once per store, however many settings values are made on it.
        #expect(
            spy.calls.filter { !$0.isSubscription } == [
                .setValue(.int(1), key: "launchCount"), .value(key: "launchCount"),
            ])
        // Another spy, even over the same wrapped store, keeps a log of its own.
        let separate = SpyStore(wrapping: spy.wrapped)
        _ = SpiedSettings(store: separate).launchCount
        #expect(separate.calls.filter { !$0.isSubscription } == [.value(key: "launchCount")])
        #expect(spy.calls.count == 4)

        spy.removeAllCalls()
        #expect(copy.calls.isEmpty)
        #expect(separate.calls.count == 3)
    }

    @Test func recordsConcurrentCallsWithoutLosingAny() async {
        let spy = SpyStore()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask {
                    for index in 0..<500 { try? spy.setValue(.int(Int64(index)), forKey: "k\(task)") }
                }
            }
        }
        #expect(spy.calls.count == 4_000)
        #expect(spy.calls(forKey: "k3").count == 500)
    }

    @Test func changesStillDeliverThroughTheSpy() async throws {
        let spy = SpyStore()
        let settings = SpiedSettings(store: spy)
        var iterator = settings.$launchCount.updates.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        settings.launchCount = 5
        #expect(await iterator.next() == 5)
        #expect(spy.calls.contains(.subscription(key: "launchCount")))
    }

    @Test(arguments: [
        (SpyStore.Call.value(key: "a"), #"value(key: "a")"#),
        (.setValue(.int(3), key: "n"), #"setValue(int(3), key: "n")"#),
        (.setValue(nil, key: "n"), #"setValue(nil, key: "n")"#),
        (.keys, "keys"),
        (.update(key: "u"), #"update(key: "u")"#),
        (.changes, "changes"),
    ])
    func describesCallsAsCode(call: SpyStore.Call, text: String) {
        #expect(call.description == text)
    }
}

extension SpyStore.Call {
    /// Whether the call subscribes to one key's changes.
    fileprivate var isSubscription: Bool {
        if case .subscription = self { return true }
        return false
    }
}
