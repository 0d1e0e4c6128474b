import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// The in-memory storage refuses a write from its own update body (``UpdateScope``'s marks) and
/// makes other threads' writes wait for the update's commit (its writers' lock): the refusals
/// and the writes that must not be refused.
@Suite(.timeLimit(TestScale.hangGuard))
struct DictionaryStorageReentryTests {
    @Test func aNestedUpdateOfTheSameStoreThrowsNamingBothKeys() throws {
        let store = InMemoryStore(["count": .int(1)])
        var nested: StorageError?
        try store.update(forKey: "count") { value in
            do {
                try store.update(forKey: "other") { $0 = .int(9) }
            } catch let error as StorageError {
                nested = error
            }
            value = .int(2)
        }
        let error = try #require(nested)
        #expect(error.code == .reentrantWrite)
        #expect(error.key == "other")
        #expect(error.message?.contains("the update of 'count'") == true, "\(String(describing: error.message))")
        #expect(store.values == ["count": .int(2)])
    }

    /// The write reaches the first store from the body of an update of a second store, itself
    /// inside the first store's update body: still the first store's own body.
    @Test func aWriteFromAnotherStoresUpdateBodyInsideThisStoresUpdateIsRefused() throws {
        let first = InMemoryStore(["count": .int(1)])
        let second = InMemoryStore()
        var refusal: StorageError?
        try first.update(forKey: "count") { value in
            try second.update(forKey: "seen") { seen in
                do {
                    try first.setValue(.int(7), forKey: "other")
                } catch let error as StorageError {
                    refusal = error
                }
                seen = .bool(true)
            }
            value = .int(2)
        }
        #expect(refusal?.code == .reentrantWrite)
        #expect(first.values == ["count": .int(2)])
        #expect(second.values == ["seen": .bool(true)])
    }

    @Test func anUpdateBodyMayWriteAndUpdateAnotherInMemoryStore() throws {
        let first = InMemoryStore(["count": .int(1)])
        let second = InMemoryStore(["total": .int(10)])
        try first.update(forKey: "count") { value in
            try second.setValue(.int(11), forKey: "total")
            try second.update(forKey: "total") { $0 = .int(12) }
            value = .int(2)
        }
        #expect(first.values == ["count": .int(2)])
        #expect(second.values == ["total": .int(12)])
    }

    @Test func anInvalidKeyFromANestedUpdateIsReportedAsAnInvalidKey() throws {
        let store = InMemoryStore(["count": .int(1)])
        var nested: StorageError?
        try store.update(forKey: "count") { _ in
            do {
                try store.update(forKey: "bad\u{0}key") { $0 = .int(1) }
            } catch let error as StorageError {
                nested = error
            }
        }
        #expect(nested?.code == .invalidKey)
    }

    /// A refused write leaves the update open and its commit whole; afterwards plain writes
    /// take the one-lock path again.
    @Test func aRefusedWriteNeitherClosesTheUpdateNorLeavesItOpen() throws {
        let storage = DictionaryStorage(["count": .int(1)])
        try storage.update(forKey: "count") { value in
            #expect(throws: StorageError.self) { try storage.setValue(.int(5), forKey: "count") }
            #expect(storage.openSequenceCount == 1)
            value = .int(2)
        }
        #expect(storage.openSequenceCount == 0)
        try storage.setValue(.int(3), forKey: "count")
        #expect(storage.value(forKey: "count") == .int(3))
    }

    /// Another thread's write during the body is not refused: it waits for the commit and
    /// then lands, after the update's change.
    @Test func aWriteFromAnotherThreadDuringTheBodyWaitsAndLandsAfterTheCommit() async throws {
        let storage = DictionaryStorage(["count": .int(1)])
        let changes = storage.changes()
        let outcome = ThreadTest.Box<String?>(nil)
        var writer: DispatchSemaphore?
        try storage.update(forKey: "count") { value in
            writer = ThreadTest.onNewThread {
                do {
                    try storage.setValue(.int(100), forKey: "count")
                } catch {
                    outcome.value = "\(error)"
                }
            }
            // The writer provably waits for this update's commit.
            while storage.waitingWriterCount == 0 { sched_yield() }
            value = .int(2)
        }
        writer?.wait()
        #expect(outcome.value == nil)
        #expect(storage.value(forKey: "count") == .int(100))
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next()?.value == .int(2))
        #expect(await iterator.next()?.value == .int(100))
    }

    /// Another thread's update during the body waits too, and then starts from this one's
    /// result: no increment is lost.
    @Test func anUpdateFromAnotherThreadDuringTheBodyStartsFromItsResult() throws {
        let storage = DictionaryStorage(["count": .int(1)])
        var other: DispatchSemaphore?
        try storage.update(forKey: "count") { value in
            other = ThreadTest.onNewThread {
                try? storage.update(forKey: "count") { value in
                    guard case .int(let count)? = value else { return }
                    value = .int(count * 10)
                }
            }
            while storage.waitingWriterCount == 0 { sched_yield() }
            value = .int(2)
        }
        other?.wait()
        #expect(storage.value(forKey: "count") == .int(20))
        #expect(storage.openSequenceCount == 0)
        #expect(storage.waitingWriterCount == 0)
    }
}
