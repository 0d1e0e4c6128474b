import Observation
import StoredSettings
import StoredSettingsSwiftUI
import StoredSettingsTestSupport
import Testing

/// Every way of following a setting (`updates`, `@LiveSetting`'s follower, the Observation
/// framework) subscribes to its key alone, the subscription on which `UserDefaultsStore` adds
/// key-value observation of other processes' writes, and never to every key.
@Suite(.timeLimit(TestScale.hangGuard))
struct FollowerKeySubscriptionTests {
    @Test func updatesSubscribesToItsKey() async {
        let spy = SpyStore()
        let setting = Stored("flag", default: false, store: spy)
        spy.removeAllCalls()
        var updates = setting.updates.makeAsyncIterator()
        #expect(await updates.next() == false)
        #expect(spy.calls.filter { !$0.isRead } == [.subscription(key: "flag")])
    }

    @Test func theSwiftUIFollowerSubscribesToItsKey() {
        let spy = SpyStore()
        let setting = Stored("flag", default: false, store: spy)
        spy.removeAllCalls()
        let follower = SettingFollower(setting) { _ in }
        #expect(spy.calls.filter { !$0.isRead } == [.subscription(key: "flag")])
        withExtendedLifetime(follower) {}
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func aSettingFollowsItsKeyForTheObservationFramework() {
        let spy = SpyStore()
        let setting = Stored("flag", default: false, store: spy)
        _ = withObservationTracking {
            setting.wrappedValue
        } onChange: {
        }
        #expect(spy.calls.filter { !$0.isRead } == [.subscription(key: "flag")])
    }
}

extension SpyStore.Call {
    /// Whether the call only reads a value.
    fileprivate var isRead: Bool {
        if case .value = self { return true }
        return false
    }
}
