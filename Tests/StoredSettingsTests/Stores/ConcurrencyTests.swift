import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

private enum Key: String, StorageKey { case count, label, profile, other }

private struct Counter: SettingsGroup {
    @Stored(Key.count, default: 0) var count: Int
    @Stored(Key.label, default: "") var label: String
    @Stored(Key.other, default: 0) var other: Int
}

/// Atomic read-modify-write on every backend.
@Suite(.timeLimit(TestScale.hangGuard))
struct ConcurrencyAtomicUpdateTests {
    @Test(arguments: ConcurrencyBackend.allCases)
    func concurrentStoredUpdatesLoseNoIncrement(backend: ConcurrencyBackend) async throws {
        let fixture = try ConcurrencyFixture(backend)
        let settings = Counter(store: fixture.store)
        let perTask = backend.updatesPerTask

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<perTask {
                        try? settings.$count.update { $0 += 1 }
                    }
                }
            }
        }
        #expect(settings.count == 8 * perTask)
    }

    @Test(arguments: ConcurrencyBackend.allCases)
    func concurrentStoreUpdatesLoseNoIncrement(backend: ConcurrencyBackend) async throws {
        let fixture = try ConcurrencyFixture(backend)
        let store = fixture.store
        // The same path as the test above; a lighter load keeps the suite fast.
        let perTask = backend == .inMemory ? backend.updatesPerTask : backend.updatesPerTask / 5

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<perTask {
                        try? store.update(forKey: "count") { value in
                            guard case .int(let count)? = value else {
                                value = .int(1)
                                return
                            }
                            value = .int(count + 1)
                        }
                    }
                }
            }
        }
        #expect(store.value(forKey: "count") == .int(Int64(8 * perTask)))
    }

    @Test func updateLosesNoCountWhereGetThenSetMay() async throws {
        // `settings.count += 1` is a get followed by a set: concurrent ones may lose counts
        // (how many is up to the scheduler, so only its bounds are checked). The same work
        // through `update` never does.
        let store = InMemoryStore()
        let settings = Counter(store: store)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<2_000 { settings.count += 1 }
                    for _ in 0..<2_000 { try? settings.$other.update { $0 += 1 } }
                }
            }
        }
        #expect((2_000...8_000).contains(settings.count))
        #expect(settings.other == 8_000)
    }
}

/// No deadlock, no exclusivity violation, whatever observers and update bodies do.
@Suite(.timeLimit(TestScale.hangGuard))
struct ConcurrencyReentrancyTests {
    @Test(arguments: ConcurrencyBackend.allCases)
    func observerThatWritesTheSameKeyNeitherDeadlocksNorCrashes(backend: ConcurrencyBackend) async throws {
        let fixture = try ConcurrencyFixture(backend)
        let settings = Counter(store: fixture.store)
        var seen: [Int] = []
        for await value in settings.$count.updates {
            seen.append(value)
            _ = settings.label // read another key
            _ = settings.count // read the same key
            if value == 5 { break }
            settings.count = value + 1 // write the same key
        }
        #expect(seen == [0, 1, 2, 3, 4, 5])
        #expect(settings.count == 5)
    }

    @Test(arguments: ConcurrencyBackend.allCases)
    func changesObserverThatWritesTheStoreNeitherDeadlocksNorCrashes(backend: ConcurrencyBackend) async throws {
        let fixture = try ConcurrencyFixture(backend)
        let store = fixture.store
        let changes = store.changes()
        try store.setValue(.int(0), forKey: "count")
        var seen = 0
        for await change in changes where change.key == "count" {
            seen += 1
            guard case .int(let count)? = store.value(forKey: "count"), count < 3 else { break }
            try store.update(forKey: "count") { $0 = .int(count + 1) }
        }
        #expect(seen == 4)
        #expect(store.value(forKey: "count") == .int(3))
    }

    @Test func consumerCancellingDuringItsFirstValueIsFine() async throws {
        let store = InMemoryStore()
        let settings = Counter(store: store)
        let idle = store.subscriberCount
        let consumer = Task {
            var count = 0
            for await _ in settings.$count.updates {
                count += 1
                withUnsafeCurrentTask { $0?.cancel() }
                settings.count += 1 // a write while being cancelled
            }
            return count
        }
        let received = await consumer.value
        #expect(received >= 1)
        await store.waitForSubscriberCount(idle)
        #expect(store.subscriberCount == idle)
    }

    @Test func consumersCancelledFromOutsideWhileWritersRunAreFine() async throws {
        let store = InMemoryStore()
        let settings = Counter(store: store)
        let idle = store.subscriberCount
        let writer = Task {
            for value in 0..<2_000 { settings.count = value }
        }
        for _ in 0..<100 {
            let consumer = Task {
                for await _ in settings.$count.updates {}
            }
            await Task.yield()
            consumer.cancel()
        }
        await writer.value
        await store.waitForSubscriberCount(idle)
        #expect(store.subscriberCount == idle)
    }

    @Test(arguments: ConcurrencyBackend.allCases)
    func updateBodyMayReadTheSameStore(backend: ConcurrencyBackend) throws {
        let fixture = try ConcurrencyFixture(backend)
        let settings = Counter(store: fixture.store)
        settings.other = 41
        try settings.$count.update { count in
            count = settings.other + 1 // another key, same store
            _ = settings.count // the key being updated
            _ = fixture.store.keys()
        }
        #expect(settings.count == 42)
    }

    @Test(arguments: ConcurrencyBackend.allCases)
    func aWriteFromAnUpdateBodyToTheSameStoreIsRefusedAndTheUpdateCommits(backend: ConcurrencyBackend) throws {
        let fixture = try ConcurrencyFixture(backend)
        let settings = Counter(store: fixture.store)
        let reported = ReportedErrors()
        try reported.capture {
            try settings.$count.update { count in
                settings.other = 7 // refused: it would be lost or wait forever
                settings.count = 100 // refused too
                count = 1
            }
        }
        #expect(reported.codes == [.reentrantWrite, .reentrantWrite])
        #expect(settings.other == 0)
        #expect(settings.count == 1)
    }

    @Test(arguments: ConcurrencyBackend.allCases)
    func valueEncodingThatReadsAnotherSettingIsFine(backend: ConcurrencyBackend) throws {
        let fixture = try ConcurrencyFixture(backend)
        let store = fixture.store
        let settings = Counter(store: store)
        settings.label = "hello"
        let reading = ReadingProfile(store: store)

        reading.profile = ReadingValue(store: store) // encodes, then writes
        #expect(reading.profile.seen == "hello")
        settings.label = "again"
        try reading.$profile.update { $0 = ReadingValue(store: store) } // encodes inside update
        #expect(reading.profile.seen == "again")
    }
}

/// A value whose `storedValue()` reads a setting of the store it is being written to.
private struct ReadingValue: Sendable, Equatable, StoredValueConvertible {
    var seen: String
    init(seen: String) { self.seen = seen }
    init(store: any Storable) {
        self.seen = ""
        self.store = store
    }
    private var store: (any Storable)?

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.seen == rhs.seen }

    init(storedValue: StoredValue) throws {
        guard case .string(let text) = storedValue else {
            throw StorageError(.typeMismatch, expectedType: "ReadingValue", foundKind: storedValue.kind)
        }
        seen = text
    }

    func storedValue() throws -> StoredValue {
        // Reads during the write: in `update`, while the store holds off other writers.
        let label = store.map { Stored(Key.label, default: "", store: $0).wrappedValue } ?? seen
        return .string(label)
    }
}

private struct ReadingProfile {
    @Stored<ReadingValue> var profile: ReadingValue
    init(store: any Storable) {
        _profile = Stored(Key.profile, default: ReadingValue(seen: ""), store: store)
    }
}
