import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// `Storable.changes()`: every committed change, once, in commit order, on every backend.
@Suite(.timeLimit(TestScale.hangGuard))
struct ObservationChangesTests {
    @Test(arguments: ConcurrencyBackend.allCases)
    func deliversEveryCommittedChangeOnceInOrder(backend: ConcurrencyBackend) async throws {
        let fixture = try ConcurrencyFixture(backend)
        let store = fixture.store
        let recorded = RecordedStream(store.changes())

        try store.setValue(.int(1), forKey: "a.b")
        try store.setValue(.int(1), forKey: "a.b") // same value: nothing
        try store.setValue(.string("x"), forKey: "user@host/🎉 key")
        try store.update(forKey: "a.b") { $0 = .int(2) }
        try store.update(forKey: "a.b") { _ in } // unchanged: nothing
        try store.setValue(nil, forKey: "a.b")
        try store.setValue(nil, forKey: "a.b") // already absent: nothing
        try store.setValue(nil, forKey: "never.set") // never there: nothing
        try store.setValue(.bool(true), forKey: "end")

        let changes = await recorded.waitFor { $0.key == "end" }
        #expect(
            changes == [
                StoredChange(key: "a.b", value: .int(1)),
                StoredChange(key: "user@host/🎉 key", value: .string("x")),
                StoredChange(key: "a.b", value: .int(2)),
                StoredChange(key: "a.b", value: nil),
                StoredChange(key: "end", value: .bool(true)),
            ])
    }

    @Test(arguments: ConcurrencyBackend.allCases)
    func failedWriteDeliversNothing(backend: ConcurrencyBackend) async throws {
        let fixture = try ConcurrencyFixture(backend)
        let store = fixture.store
        let recorded = RecordedStream(store.changes())
        struct Refused: Error {}

        #expect(throws: Refused.self) {
            try store.update(forKey: "k") {
                $0 = .int(1)
                throw Refused()
            }
        }
        #expect(throws: StorageError.self) { try store.setValue(.int(1), forKey: "") }
        try store.setValue(.int(2), forKey: "k")

        #expect(await recorded.waitFor { $0.key == "k" } == [StoredChange(key: "k", value: .int(2))])
    }

    @Test(arguments: ConcurrencyBackend.allCases)
    func everySubscriberSeesTheSameSequenceUnderConcurrentWriters(backend: ConcurrencyBackend) async throws {
        let fixture = try ConcurrencyFixture(backend)
        let store = fixture.store
        let first = RecordedStream(store.changes())
        let second = RecordedStream(store.changes())
        let writes = backend == .file ? 20 : 500

        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for index in 0..<writes {
                        try? store.setValue(.int(Int64(index)), forKey: "writer.\(writer)")
                    }
                }
            }
        }
        let total = 4 * writes
        let seen = await first.waitForCount(total)
        #expect(seen.count == total)
        #expect(await second.waitForCount(total) == seen)
        for writer in 0..<4 {
            let values = seen.filter { $0.key == "writer.\(writer)" }.map(\.value)
            #expect(values == (0..<writes).map { .int(Int64($0)) })
        }
    }

    @Test func userDefaultsStoresOnOneSuiteShareTheirChanges() async throws {
        let name = FileManager.default.temporaryDirectory.appendingPathComponent(
            "StoredSettingsTests-\(UUID().uuidString)"
        ).path
        let first = try UserDefaultsStore(suiteAtPath: name)
        defer { first.defaults.removePersistentDomain(forName: name) }
        let second = try UserDefaultsStore(suiteAtPath: name)
        let recorded = RecordedStream(first.changes())

        try second.setValue(.int(1), forKey: "shared")
        second.removeAll()
        try first.setValue(.int(3), forKey: "end")

        #expect(
            await recorded.waitFor { $0.key == "end" } == [
                StoredChange(key: "shared", value: .int(1)),
                StoredChange(key: "shared", value: nil),
                StoredChange(key: "end", value: .int(3)),
            ])
        recorded.cancel()
        await first.waitForSubscriberCount(0)
        #expect(first.subscriberCount == 0)
    }
}
