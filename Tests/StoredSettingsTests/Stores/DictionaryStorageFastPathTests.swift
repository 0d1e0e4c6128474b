import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// Tests of the in-memory fast paths (plain writes under one lock, slot reuse,
/// skipped key validation, skipped broadcaster, per-thread update marks kept for the thread's
/// life). No test reads the clock: threads meet on semaphores, streams are read until a
/// sentinel.
@Suite(.timeLimit(TestScale.hangGuard))
struct DictionaryStorageFastPathTests {
    // MARK: - Subscriber upper bound

    /// A stream subscribed right before a write receives that write, while other streams are
    /// created and dropped (each drop lowers the broadcaster's count) and another thread keeps
    /// publishing (each publish lowers the store's upper bound to the broadcaster's count) and
    /// updating (plain writes then take the writers' lock).
    @Test func aStreamSubscribedWhileOthersComeAndGoSeesTheNextWrite() async throws {
        let store = InMemoryStore()
        let stopChurn = ThreadTest.repeatOnNewThread { round in
            _ = store.changes() // dropped at once: terminated, removed from the broadcaster
            try? store.setValue(.int(round), forKey: "noise")
            try? store.update(forKey: "noise") { $0 = .int(-round) }
        }
        let rounds = TestScale.pick(quick: 400, full: 4_000)
        var missed: [Int] = []
        for round in 0..<rounds {
            let stream = store.changes()
            try store.setValue(.int(Int64(round)), forKey: "k")
            // A second subscription forces the sentinel through, so a missed write is seen
            // (as the sentinel arriving first) instead of hanging.
            _ = store.changes()
            try store.setValue(.string("sentinel"), forKey: "k")
            for await change in stream where change.key == "k" {
                if change.value != .int(Int64(round)) { missed.append(round) }
                break
            }
        }
        stopChurn()
        #expect(missed.isEmpty, "a stream missed the write right after it subscribed in rounds \(missed.prefix(10))")
    }

    /// The same for the value-and-stream subscription of one key (what `Stored.updates` uses).
    @Test func aKeySubscriptionTakenWhileOthersEndSeesTheNextWrite() async throws {
        let store = InMemoryStore()
        let stopChurn = ThreadTest.repeatOnNewThread { round in
            let other = store.subscription(readingValueForKey: "k")
            other.end()
            try? store.setValue(.int(round), forKey: "other")
        }
        var missed: [Int] = []
        for round in 0..<TestScale.pick(quick: 400, full: 4_000) {
            let subscription = store.subscription(readingValueForKey: "k")
            try store.setValue(.int(Int64(round)), forKey: "k")
            _ = store.changes()
            try store.setValue(.string("sentinel"), forKey: "k")
            for await change in subscription.changes {
                if change.value != .int(Int64(round)) { missed.append(round) }
                break
            }
            subscription.end()
        }
        stopChurn()
        #expect(missed.isEmpty, "rounds \(missed.prefix(10))")
    }

    /// A writer thread commits 1, 2, 3, … to one key on the one-lock path as fast as it can,
    /// a second thread subscribes and drops streams; this task takes value-and-stream
    /// subscriptions concurrently with both. Each subscription's first change must be its
    /// value plus one: a commit skipped because the store's bound said nobody listens, or a
    /// change delivered twice or out of order, shows.
    @Test func aSubscriptionTakenConcurrentlyWithWritesSeesTheVeryNextCommit() async throws {
        let store = InMemoryStore(["k": .int(0)])
        let stop = ThreadTest.Flag()
        let writer = ThreadTest.onNewThread {
            var next: Int64 = 1
            while !stop.isRaised {
                try? store.setValue(.int(next), forKey: "k")
                next += 1
            }
        }
        let churn = ThreadTest.onNewThread {
            while !stop.isRaised {
                let other = store.subscription(readingValueForKey: "k")
                other.end()
                _ = store.changes()
            }
        }
        var problems: [String] = []
        for _ in 0..<TestScale.pick(quick: 1_000, full: 10_000) {
            let subscription = store.subscription(readingValueForKey: "k")
            guard case .int(let start)? = subscription.value else {
                problems.append("no start")
                break
            }
            var seen: [Int64] = []
            for await change in subscription.changes {
                guard case .int(let value)? = change.value else { continue }
                seen.append(value)
                if seen.count == 3 { break }
            }
            if seen != [start + 1, start + 2, start + 3] { problems.append("from \(start): \(seen)") }
            subscription.end()
        }
        stop.raise()
        writer.wait()
        churn.wait()
        #expect(problems.isEmpty, "\(problems.prefix(5))")
    }

    /// FileStore keeps its values in the same storage: a stream subscribed after every earlier
    /// one ended still receives its writes and the changes a reload finds.
    @Test func aFileStoreStreamSubscribedAfterEarlierOnesEndedReceivesWritesAndReloads() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let store = try FileStore(url: url, options: quietOptions)
        let other = try FileStore(url: url, options: quietOptions)
        do {
            let first = store.changes()
            try store.setValue(.int(1), forKey: "a")
            var iterator = first.makeAsyncIterator()
            #expect(await iterator.next() == StoredChange(key: "a", value: .int(1)))
        }
        // Every earlier stream is gone (dropped: terminated at once); a commit delivered to
        // nobody lowers the bound to zero.
        try store.setValue(.int(2), forKey: "a")

        let later = store.changes()
        try store.setValue(.int(3), forKey: "a")
        try other.setValue(.int(4), forKey: "b")
        try store.reload()
        var iterator = later.makeAsyncIterator()
        #expect(await iterator.next() == StoredChange(key: "a", value: .int(3)))
        #expect(await iterator.next() == StoredChange(key: "b", value: .int(4)))
    }

    /// Every update's change is delivered once and in order to a stream subscribed before any
    /// of them, while plain writes to other keys take the one-lock path, other streams come
    /// and go, and updates run on several threads.
    @Test func updatesOnManyThreadsAreDeliveredOnceInOrderAmidPlainWritesAndChurn() async throws {
        let store = InMemoryStore(["count": .int(0)])
        let stream = store.changes()
        let threads = 4
        let perThread = TestScale.pick(quick: 500, full: 5_000)
        var done: [DispatchSemaphore] = []
        for thread in 0..<threads {
            done.append(
                ThreadTest.onNewThread {
                    for round in 0..<perThread {
                        try? store.update(forKey: "count") { value in
                            guard case .int(let count)? = value else { return }
                            value = .int(count + 1)
                        }
                        try? store.setValue(.int(Int64(round)), forKey: "plain-\(thread)")
                        if round % 7 == 0 { _ = store.changes() }
                    }
                })
        }
        for semaphore in done { semaphore.wait() }
        try store.setValue(.string("end"), forKey: "count")
        var previous: Int64 = 0
        var problems: [String] = []
        for await change in stream where change.key == "count" {
            guard case .int(let value)? = change.value else { break }
            if value != previous + 1 { problems.append("\(previous) then \(value)") }
            previous = value
        }
        #expect(previous == Int64(threads * perThread))
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        #expect(store.value(forKey: "count") == .string("end"))
    }

    // MARK: - Re-entry and other threads

    /// Nested updates of two stores on one thread: a write to either store from the inner
    /// body is refused, and once the inner update returns, its store takes writes again from
    /// the outer body while the outer store still refuses them.
    @Test func nestedUpdatesOfDifferentStoresOnOneThreadRefuseExactlyTheirOwnWrites() throws {
        let outer = InMemoryStore()
        let inner = InMemoryStore()
        try outer.update(forKey: "o") { outerValue in
            try inner.update(forKey: "i") { innerValue in
                #expect(throws: StorageError.self) { try outer.setValue(.int(1), forKey: "x") }
                #expect(throws: StorageError.self) { try inner.setValue(.int(1), forKey: "x") }
                #expect(throws: StorageError.self) { try outer.update(forKey: "x") { $0 = .int(1) } }
                #expect(throws: StorageError.self) { try inner.update(forKey: "x") { $0 = .int(1) } }
                innerValue = .int(2)
            }
            // An inner update of the outer store's sibling that throws: its marks unwind, the
            // outer store's mark stays.
            struct Stop: Error {}
            var refusedInside = false
            do {
                try inner.update(forKey: "z") { (_: inout StoredValue?) throws -> Void in
                    do { try outer.setValue(.int(1), forKey: "x") } catch let error as StorageError {
                        refusedInside = error.code == .reentrantWrite
                    }
                    throw Stop()
                }
            } catch is Stop {}
            #expect(refusedInside)
            #expect(throws: StorageError.self) { try outer.update(forKey: "x") { $0 = .int(1) } }
            // The inner update is over: its store takes writes, the outer one still does not.
            try inner.setValue(.int(3), forKey: "y")
            let error = #expect(throws: StorageError.self) { try outer.setValue(.int(1), forKey: "y") }
            #expect(error?.code == .reentrantWrite)
            outerValue = .int(4)
        }
        #expect(outer.values == ["o": .int(4)])
        #expect(inner.values == ["i": .int(2), "y": .int(3)])
        // After both: writes to both work.
        try outer.setValue(.int(5), forKey: "o")
        try inner.setValue(.int(6), forKey: "i")
    }

    /// The same store nested inside another store's update three deep, with a throwing inner
    /// body: the marks are unwound, so the next plain write from this thread is accepted.
    @Test func marksUnwindAfterAThrowingNestedBody() throws {
        struct Stop: Error {}
        let a = InMemoryStore()
        let b = InMemoryStore()
        let c = InMemoryStore()
        #expect(throws: Stop.self) {
            try a.update(forKey: "k") { _ in
                try b.update(forKey: "k") { _ in
                    try c.update(forKey: "k") { _ in throw Stop() }
                }
            }
        }
        for store in [a, b, c] {
            try store.setValue(.int(1), forKey: "k")
            try store.update(forKey: "k") { $0 = .int(2) }
            #expect(store.value(forKey: "k") == .int(2))
        }
    }

    /// A write made from another thread while an update body runs is not re-entry: it waits
    /// and lands after the update's commit, never between its read and its commit.
    @Test func aWriteFromAnotherThreadDuringAnUpdateBodyLandsAfterTheUpdate() async throws {
        let rounds = TestScale.pick(quick: 200, full: 2_000)
        var landedInside: [Int] = []
        var refused: [Int] = []
        for round in 0..<rounds {
            let store = InMemoryStore(["k": .int(0)])
            let stream = store.changes()
            let started = DispatchSemaphore(value: 0)
            let error = ThreadTest.Box<StorageError?>(nil)
            var writer: DispatchSemaphore?
            try store.update(forKey: "k") { value in
                writer = ThreadTest.onNewThread {
                    started.signal()
                    do { try store.setValue(.int(-1), forKey: "k") } catch let e as StorageError {
                        error.value = e
                    } catch {}
                }
                started.wait()
                // Whatever the writer did meanwhile must not be visible inside the body.
                if store.value(forKey: "k") != .int(0) { landedInside.append(round) }
                value = .int(1)
            }
            writer?.wait()
            if error.value != nil { refused.append(round) }
            try store.setValue(.string("end"), forKey: "k")
            var order: [StoredValue?] = []
            for await change in stream {
                if change.value == .string("end") { break }
                order.append(change.value)
            }
            #expect(order == [.int(1), .int(-1)], "round \(round)")
            #expect(store.value(forKey: "k") == .string("end"))
        }
        #expect(landedInside.isEmpty)
        #expect(refused.isEmpty, "a write from another thread was taken for re-entry")
    }

    /// The update reuses the slot it found at its read: a body that takes a snapshot of the
    /// values (so the dictionary's storage is shared and the commit copies it) or adds nothing
    /// still commits to the right key, for a change and for a removal, on a large dictionary.
    @Test func anUpdateCommitsToItsSlotAfterItsBodySharedTheDictionary() throws {
        var initial: [String: StoredValue] = [:]
        for index in 0..<200 { initial["key\(index)"] = .int(Int64(index)) }
        let store = InMemoryStore(initial)
        var kept: [[String: StoredValue]] = []
        for index in stride(from: 0, to: 200, by: 3) {
            try store.update(forKey: "key\(index)") { value in
                kept.append(store.values)
                value = index % 2 == 0 ? nil : .int(-1)
            }
        }
        let values = store.values
        for index in 0..<200 {
            let expected: StoredValue? =
                index % 3 != 0 ? .int(Int64(index)) : (index % 2 == 0 ? nil : .int(-1))
            #expect(values["key\(index)"] == expected, "key\(index)")
        }
        #expect(kept.first?["key0"] == .int(0))
        #expect(kept.count == 67)
    }

    // MARK: - Thread exit

    /// Threads that ran updates (nested, throwing, of several stores) end, and their marks are
    /// destroyed with them; other threads and this one keep working, and a thread that ends
    /// inside nothing leaves nothing marked for a new thread.
    @Test func threadsThatRanUpdatesEndCleanly() throws {
        struct Stop: Error {}
        let a = InMemoryStore()
        let b = InMemoryStore()
        let count = TestScale.pick(quick: 64, full: 512)
        var done: [DispatchSemaphore] = []
        for index in 0..<count {
            done.append(
                ThreadTest.onNewThread {
                    try? a.update(forKey: "n\(index % 8)") { value in
                        try? b.update(forKey: "n") { $0 = .int(Int64(index)) }
                        value = .int(Int64(index))
                    }
                    _ = try? a.update(forKey: "t") { (_: inout StoredValue?) throws -> Void in throw Stop() }
                    // Marks unwound on this thread before it ends.
                    do {
                        try a.setValue(.int(Int64(index)), forKey: "after\(index)")
                    } catch {
                        Issue.record("thread \(index): \(error)")
                    }
                })
            // Half the threads end before the next starts, half overlap.
            if index % 2 == 0 { done.removeLast().wait() }
        }
        for semaphore in done { semaphore.wait() }
        #expect(a.keys().filter { $0.hasPrefix("after") }.count == count)
        try a.update(forKey: "main") { $0 = .int(1) }
        try a.setValue(.int(2), forKey: "main")
        #expect(a.value(forKey: "main") == .int(2))
    }

}
