import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// The in-memory write path commits under one lock when no update is between its read and its
/// commit, skips key validation for a key a write already accepted, and skips the broadcaster
/// while nobody listens. These tests hold each shortcut to the contract it must keep.
@Suite(.timeLimit(TestScale.hangGuard))
struct PlainWriteFastPathTests {
    /// Sets write multiples of a million; updates add one. In the order changes are delivered
    /// (commit order), every update's value is the one before it plus one; a set that landed
    /// between an update's read and its commit would be followed by the update's stale result.
    @Test func aPlainWriteNeverLandsBetweenAnUpdatesReadAndItsCommit() async throws {
        let store = InMemoryStore(["count": .int(1)])
        let changes = store.changes()
        let rounds = 2_000
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<rounds {
                    try? store.update(forKey: "count") { value in
                        guard case .int(let count)? = value else { return }
                        value = .int(count + 1)
                    }
                }
            }
            group.addTask {
                for round in 1...rounds { try? store.setValue(.int(Int64(round) * 1_000_000), forKey: "count") }
            }
        }
        try store.setValue(.string("done"), forKey: "count")

        var previous: Int64 = 1
        var updates = 0
        var misplaced: [String] = []
        for await change in changes {
            guard case .int(let value)? = change.value else { break }
            if value % 1_000_000 != 0 {
                updates += 1
                if value != previous + 1 { misplaced.append("\(previous) then \(value)") }
            }
            previous = value
        }
        #expect(updates == rounds)
        #expect(misplaced.isEmpty, "updates committed over a write that landed inside them: \(misplaced.prefix(5))")
    }

    @Test func aSeededKeyThatAWriteWouldRefuseIsRefusedWhenWritten() throws {
        let store = InMemoryStore(["bad\u{1}key": .int(1), "good": .int(1)])
        for write in ["setValue", "update"] {
            let error = try #require(throws: StorageError.self, "\(write)") {
                if write == "setValue" {
                    try store.setValue(.int(2), forKey: "bad\u{1}key")
                } else {
                    try store.update(forKey: "bad\u{1}key") { $0 = .int(2) }
                }
            }
            #expect(error.code == .invalidKey)
            #expect(error.message?.contains("U+0001") == true)
        }
        #expect(store.value(forKey: "bad\u{1}key") == .int(1))
        try store.setValue(.int(2), forKey: "good")
        #expect(store.value(forKey: "good") == .int(2))
    }

    @Test func aKeyCanonicallyEquivalentToAStoredOneIsRefusedByWritesAndUpdates() throws {
        let store = InMemoryStore()
        try store.setValue(.int(1), forKey: "caf\u{E9}")
        let error = try #require(throws: StorageError.self) {
            try store.setValue(.int(2), forKey: "cafe\u{301}")
        }
        #expect(error.code == .invalidKey)
        #expect(throws: StorageError.self) { try store.update(forKey: "cafe\u{301}") { $0 = .int(3) } }
        #expect(store.value(forKey: "caf\u{E9}") == .int(1))
    }

    @Test func anInvalidKeyWrittenFromAnUpdateBodyIsReportedAsAnInvalidKey() throws {
        let store = InMemoryStore()
        try store.update(forKey: "count") { value in
            value = .int(1)
            let invalid = #expect(throws: StorageError.self) { try store.setValue(.int(2), forKey: "") }
            #expect(invalid?.code == .invalidKey)
            let reentrant = #expect(throws: StorageError.self) { try store.setValue(.int(2), forKey: "other") }
            #expect(reentrant?.code == .reentrantWrite)
        }
        #expect(store.value(forKey: "count") == .int(1))
        #expect(store.value(forKey: "other") == nil)
    }

    @Test func aStreamSubscribedAfterEveryEarlierOneEndedReceivesChanges() async throws {
        let store = InMemoryStore()
        let first = Task { () -> StoredChange? in
            for await change in store.changes() { return change }
            return nil
        }
        await store.waitForSubscriberCount(1)
        try store.setValue(.int(1), forKey: "count")
        #expect(await first.value == StoredChange(key: "count", value: .int(1)))
        await store.waitForSubscriberCount(0)
        // Delivered to nobody; the store learns that nobody listens.
        try store.setValue(.int(2), forKey: "count")

        let later = store.changes()
        try store.setValue(.int(3), forKey: "count")
        var iterator = later.makeAsyncIterator()
        #expect(await iterator.next() == StoredChange(key: "count", value: .int(3)))
    }

    @Test func everyUpdateClosesItsSequenceWhetherItsBodyReturnsOrThrows() throws {
        let storage = DictionaryStorage()
        struct Stop: Error {}
        try storage.update(forKey: "count") { $0 = .int(1) }
        #expect(storage.openSequenceCount == 0)
        #expect(throws: Stop.self) { try storage.update(forKey: "count") { _ in throw Stop() } }
        #expect(storage.openSequenceCount == 0)
        #expect(throws: StorageError.self) { try storage.update(forKey: "") { $0 = .int(1) } }
        #expect(storage.openSequenceCount == 0)
        try storage.update(forKey: "count") { value in
            #expect(storage.openSequenceCount == 1)
            value = .int(2)
        }
        #expect(storage.value(forKey: "count") == .int(2))
    }
}
