import StoredSettings
import StoredSettingsSwiftUI
import StoredSettingsTestSupport
import Testing

/// `SettingFollower`, the part of `@LiveSetting` that runs everywhere: it is called after each
/// change of the setting it follows, a change made at once included, follows a new setting when
/// given one, and lets go of the store when released.
@Suite(.timeLimit(TestScale.hangGuard))
struct SettingFollowerTests {
    @Test func everyChangeIsDeliveredTheFirstMadeAtOnceIncluded() async throws {
        let store = InMemoryStore()
        let count = Stored("count", default: 0, store: store)
        let (values, sink) = AsyncStream<StoredValue?>.makeStream()
        let follower = SettingFollower(count) { sink.yield($0) }
        var received = values.makeAsyncIterator()
        count.wrappedValue = 1
        count.wrappedValue = 2
        #expect(await received.next() == .int(1))
        #expect(await received.next() == .int(2))
        count.reset()
        #expect(await received.next() == .some(nil))
        withExtendedLifetime(follower) {}
    }

    @Test func anotherSettingIsFollowedInsteadOfTheFirst() async throws {
        let store = InMemoryStore()
        let first = Stored("first", default: 0, store: store)
        let second = Stored("second", default: 0, store: store)
        let (values, sink) = AsyncStream<StoredValue?>.makeStream()
        let follower = SettingFollower(first) { sink.yield($0) }
        follower.follow(second)
        var received = values.makeAsyncIterator()
        first.wrappedValue = 7
        second.wrappedValue = 9
        #expect(await received.next() == .int(9))
        withExtendedLifetime(follower) {}
    }

    @Test func aReleasedFollowerLetsGoOfTheStore() async throws {
        let store = InMemoryStore()
        let count = Stored("count", default: 0, store: store)
        let idle = store.subscriberCount
        var follower: SettingFollower<Int>? = SettingFollower(count) { _ in }
        #expect(store.subscriberCount == idle + 1)
        follower = nil
        await store.waitForSubscriberCount(idle)
        #expect(store.subscriberCount == idle && follower == nil)
    }
}
