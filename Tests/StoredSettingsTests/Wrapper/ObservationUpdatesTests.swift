import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

private enum Key: String, StorageKey { case count, name, other }

private struct Counter: SettingsGroup {
    @Stored(Key.count, default: 0) var count: Int
    @Stored(Key.name) var name: String?
}

/// `$setting.updates`: the current value first, then each committed change once, in order.
@Suite(.timeLimit(TestScale.hangGuard))
struct ObservationUpdatesTests {
    @Test func yieldsTheDefaultFirstWhenTheKeyIsAbsent() async {
        let settings = Counter(store: InMemoryStore())
        let recorded = RecordedStream(settings.$count.updates)
        #expect(await recorded.waitForCount(1) == [0])
    }

    @Test func yieldsTheStoredValueFirst() async {
        let settings = Counter(store: InMemoryStore(["count": .int(7)]))
        let recorded = RecordedStream(settings.$count.updates)
        #expect(await recorded.waitForCount(1) == [7])
    }

    @Test(arguments: ConcurrencyBackend.allCases)
    func yieldsEveryWriteWhoeverWritesIt(backend: ConcurrencyBackend) async throws {
        let fixture = try ConcurrencyFixture(backend)
        let settings = Counter(store: fixture.store)
        let other = Counter(store: fixture.store)
        let recorded = RecordedStream(settings.$count.updates)
        await recorded.waitForCount(1)

        settings.count = 1 // this wrapper
        await recorded.waitForCount(2)
        other.count = 2 // another settings value
        await recorded.waitForCount(3)
        try fixture.store.setValue(.int(3), forKey: "count") // the store's own API
        await recorded.waitForCount(4)
        try other.$count.update { $0 += 1 } // an update elsewhere
        await recorded.waitForCount(5)
        let separate = Stored(Key.count, default: 0, store: fixture.store)
        separate.wrappedValue = 5 // a lone wrapper
        await recorded.waitForCount(6)
        settings.$count.reset() // removal: the default
        let values = await recorded.waitForCount(7)

        #expect(values == [0, 1, 2, 3, 4, 5, 0])
    }

    @Test(arguments: ConcurrencyBackend.allCases)
    func writingTheValueAlreadyHeldYieldsNothing(backend: ConcurrencyBackend) async throws {
        let fixture = try ConcurrencyFixture(backend)
        let settings = Counter(store: fixture.store)
        settings.count = 4
        let recorded = RecordedStream(settings.$count.updates)
        await recorded.waitForCount(1)

        settings.count = 4
        try fixture.store.setValue(.int(4), forKey: "count")
        try settings.$count.update { $0 = 4 }
        settings.$name.reset() // absent stays absent: no change anywhere
        settings.count = 5 // the sentinel: everything before it arrived
        let values = await recorded.waitFor { $0 == 5 }

        #expect(values == [4, 5])
    }

    @Test func writesToOtherKeysYieldNothing() async throws {
        let store = InMemoryStore()
        let settings = Counter(store: store)
        let recorded = RecordedStream(settings.$count.updates)
        await recorded.waitForCount(1)

        settings.name = "x"
        try store.setValue(.int(1), forKey: "count.suffix")
        try store.setValue(.int(1), forKey: "prefix.count")
        settings.count = 9
        #expect(await recorded.waitFor { $0 == 9 } == [0, 9])
    }

    @Test(arguments: ["a.b", "a/b/c", "user@example.com", "with space", "🎉 party", "x.y/z @ 🎉", "..", "count."])
    func keysOfAnyShapeAreObserved(key: String) async throws {
        let store = InMemoryStore()
        let setting = Stored(key, default: "none", store: store)
        let recorded = RecordedStream(setting.updates)
        await recorded.waitForCount(1)

        setting.wrappedValue = "first"
        await recorded.waitForCount(2)
        try store.setValue(.string("second"), forKey: key)
        #expect(await recorded.waitForCount(3) == ["none", "first", "second"])
    }

    @Test func optionalSettingYieldsNilOnRemoval() async {
        let settings = Counter(store: InMemoryStore())
        let recorded = RecordedStream(settings.$name.updates)
        await recorded.waitForCount(1)
        settings.name = "Ada"
        await recorded.waitForCount(2)
        settings.name = nil
        #expect(await recorded.waitForCount(3) == [nil, "Ada", nil])
    }

    @Test func slowConsumerGetsTheNewestValueNotABacklog() async throws {
        let store = HandFedStore()
        let settings = Counter(store: store)
        let updates = settings.$count.updates
        for value in 1...1_000 { settings.count = value }
        // The relay has passed on all 1,000 changes once it asks the store for the 1,001st.
        await store.waitUntilRequested(1_001)

        // A consumer that starts only now gets the newest value, not the default and 1,000
        // values after it; then each later change in turn.
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == 1_000)
        settings.count = 1_001
        #expect(await iterator.next() == 1_001)
    }

    @Test func undecodableValueYieldsTheDefaultAndIsReported() async throws {
        let store = InMemoryStore(["count": .string("three")])
        let settings = Counter(store: store)
        let reported = ReportedErrors()
        let recorded = reported.capture { RecordedStream(settings.$count.updates) }
        #expect(await recorded.waitForCount(1) == [0])
        try store.setValue(.string("four"), forKey: "count")
        // Only the newest value is buffered: the next write waits until this default arrived.
        #expect(await recorded.waitForCount(2) == [0, 0])
        try store.setValue(.int(4), forKey: "count")
        #expect(await recorded.waitFor { $0 == 4 } == [0, 0, 4])
        #expect(reported.codes == [.typeMismatch, .typeMismatch])
        #expect(reported.errors.first?.key == "count")
    }
}

/// A consumer that stops, in any way, releases its subscription to the store.
@Suite(.timeLimit(TestScale.hangGuard))
struct ObservationSubscriptionTests {
    @Test(arguments: [ConcurrencyBackend.inMemory, .userDefaults])
    func cancelledConsumerReleasesItsSubscription(backend: ConcurrencyBackend) async throws {
        let fixture = try ConcurrencyFixture(backend)
        let settings = Counter(store: fixture.store)
        let idle = try #require(fixture.subscriberCount)
        let recorded = RecordedStream(settings.$count.updates)
        await recorded.waitForCount(1)
        #expect(fixture.subscriberCount == idle + 1)

        recorded.cancel()
        await fixture.waitForSubscriberCount(idle)
        #expect(fixture.subscriberCount == idle)
    }

    @Test func consumerThatBreaksOutReleasesItsSubscription() async {
        let store = InMemoryStore()
        let settings = Counter(store: store)
        let idle = store.subscriberCount
        var first: Int?
        for await value in settings.$count.updates {
            #expect(store.subscriberCount == idle + 1)
            first = value
            break
        }
        #expect(first == 0)
        await store.waitForSubscriberCount(idle)
        #expect(store.subscriberCount == idle)
    }

    @Test func droppedStreamReleasesItsSubscription() async {
        let store = InMemoryStore()
        let settings = Counter(store: store)
        let idle = store.subscriberCount
        do {
            let updates = settings.$count.updates
            _ = updates
            #expect(store.subscriberCount == idle + 1)
        }
        await store.waitForSubscriberCount(idle)
        #expect(store.subscriberCount == idle)
    }

    @Test func cancelledChangesConsumerReleasesItsSubscription() async {
        let store = InMemoryStore()
        let recorded = RecordedStream(store.changes())
        #expect(store.subscriberCount == 1)
        recorded.cancel()
        await store.waitForSubscriberCount(0)
        #expect(store.subscriberCount == 0)
    }

    @Test func manySubscribersComeAndGo() async {
        let store = InMemoryStore()
        let settings = Counter(store: store)
        let idle = store.subscriberCount
        let firstValues = await withTaskGroup(of: Int?.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    for await value in settings.$count.updates { return value }
                    return nil
                }
            }
            return await group.reduce(into: [Int?]()) { $0.append($1) }
        }
        #expect(firstValues == Array(repeating: 0, count: 50))
        await store.waitForSubscriberCount(idle)
        #expect(store.subscriberCount == idle)
    }
}

/// A store whose `changes()` streams hand out each change only when their consumer asks for
/// it, and tell how far each consumer has asked: a test knows when everything before was taken.
/// A settings value subscribes too (for the Observation framework), so each stream is counted
/// apart: one fast consumer must not stand for a slower one.
private final class HandFedStore: Storable {
    private let values = InMemoryStore()
    /// The changes so far, and how many changes each open stream's consumer has asked for.
    private let feed = AwaitableState<(changes: [StoredChange], requested: [Int: Int])>(([], [:]))
    private let streams = Lock(0)

    func value(forKey key: String) -> StoredValue? { values.value(forKey: key) }
    func keys() -> [String] { values.keys() }

    func setValue(_ value: StoredValue?, forKey key: String) throws {
        try values.setValue(value, forKey: key)
        feed.withLock { $0.changes.append(StoredChange(key: key, value: value)) }
    }

    func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        var value = values.value(forKey: key)
        let result = try body(&value)
        try setValue(value, forKey: key)
        return result
    }

    func changes() -> AsyncStream<StoredChange> {
        let feed = feed
        let stream = streams.withLock { next in
            defer { next += 1 }
            return next
        }
        feed.withLock { $0.requested[stream] = 0 }
        let cursor = Lock(0)
        return AsyncStream(
            unfolding: {
                let index = cursor.withLock { next in
                    defer { next += 1 }
                    return next
                }
                feed.withLock { $0.requested[stream] = index + 1 }
                let state = await feed.wait { $0.changes.count > index }
                return index < state.changes.count ? state.changes[index] : nil
            },
            onCancel: { feed.withLock { $0.requested[stream] = nil } })
    }

    /// Returns once every open stream's consumer has asked for the `count`-th change.
    func waitUntilRequested(_ count: Int) async {
        await feed.wait { $0.requested.values.allSatisfy { $0 >= count } }
    }
}
