import Foundation
import StoredSettings
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The in-memory storage's update under attack: other writers wait for the writers' lock while
/// an update's body runs, and the commit (or the body's error) lets them in. No writer may be
/// left waiting, no write may land inside an update, and every change arrives once, in order.
@Suite(.timeLimit(TestScale.hangGuard))
struct DictionaryStorageUpdateGateTests {
    /// Threads mixing updates (whose bodies read the storage, and sometimes throw) with plain
    /// writes of their own keys: every increment lands, the counter's changes arrive as 1, 2, 3…
    /// exactly once, and nothing stays open or waiting.
    @Test func mixedWritersWhileUpdatesAreOpenLoseNoIncrementAndNoWakeUp() async throws {
        let storage = DictionaryStorage(["n": .int(0)])
        var changes = storage.changes().makeAsyncIterator()
        let threads = 4
        let rounds = TestScale.pick(quick: 500, full: 3_000)
        struct Refused: Error {}
        let done = (0..<threads).map { thread in
            ThreadTest.onNewThread {
                for round in 0..<rounds {
                    // A body that throws commits nothing, and must still wake the waiters.
                    if round % 7 == 0 {
                        _ = try? storage.update(forKey: "n") { _ in throw Refused() }
                    }
                    try? storage.update(forKey: "n") { value in
                        // A read of the same storage from the body: no deadlock, and the value
                        // the body started from (no write lands inside the update).
                        let seen = storage.value(forKey: "n")
                        guard case .int(let count) = value, seen == value else { return }
                        value = .int(count + 1)
                    }
                    try? storage.setValue(.int(Int64(round)), forKey: "t\(thread)")
                    if round % 5 == 0 {
                        try? storage.setValue(nil, forKey: "t\(thread)")
                    }
                }
            }
        }
        for thread in done { thread.wait() }
        let total = Int64(threads * rounds)
        #expect(storage.value(forKey: "n") == .int(total))
        #expect(storage.openSequenceCount == 0)
        #expect(storage.waitingWriterCount == 0)
        var counts: [Int64] = []
        while counts.last != total, let change = await changes.next() {
            if change.key == "n", case .int(let count)? = change.value { counts.append(count) }
        }
        #expect(counts == Array(1...total))
    }

    /// The body waits until writers provably wait for it, then throws: every one of them gets
    /// through, in the state the update left (unchanged).
    @Test func aBodyThatThrowsWhileWritersWaitLetsEveryOneThrough() throws {
        let storage = DictionaryStorage(["n": .int(0)])
        struct Refused: Error {}
        for round in 0..<TestScale.pick(quick: 50, full: 300) {
            var writers: [DispatchSemaphore] = []
            #expect(throws: Refused.self) {
                try storage.update(forKey: "n") { _ in
                    for writer in 0..<3 {
                        writers.append(
                            ThreadTest.onNewThread {
                                if writer == 0 {
                                    try? storage.setValue(.int(1), forKey: "w\(writer)")
                                } else {
                                    try? storage.update(forKey: "w\(writer)") { $0 = .int(1) }
                                }
                            })
                    }
                    while storage.waitingWriterCount < 3 { sched_yield() }
                    throw Refused()
                }
            }
            for writer in writers { writer.wait() }
            #expect(storage.snapshot == ["n": .int(0), "w0": .int(1), "w1": .int(1), "w2": .int(1)], "round \(round)")
            #expect(storage.openSequenceCount == 0)
            #expect(storage.waitingWriterCount == 0)
            for key in ["w0", "w1", "w2"] { try storage.setValue(nil, forKey: key) }
        }
    }

    /// A body that starts a thread writing the same storage and returns without waiting: the
    /// thread's update waits for the commit and starts from its result.
    @Test func aThreadStartedByABodyAndNotAwaitedUpdatesAfterTheCommit() async throws {
        let storage = DictionaryStorage(["n": .int(0)])
        var changes = storage.changes().makeAsyncIterator()
        var started: [DispatchSemaphore] = []
        let rounds = TestScale.pick(quick: 200, full: 1_000)
        for round in 0..<rounds {
            try storage.update(forKey: "n") { value in
                started.append(
                    ThreadTest.onNewThread {
                        try? storage.update(forKey: "n") { value in
                            guard case .int(let count) = value else { return }
                            value = .int(count + 1)
                        }
                    })
                value = .int(Int64(round) * 10)
            }
            started.removeLast().wait()
            #expect(storage.value(forKey: "n") == .int(Int64(round) * 10 + 1), "round \(round)")
        }
        // Round 0's commit writes 0 over 0, which changes nothing.
        var expected: [Int64] = [1]
        for round in 1..<Int64(rounds) { expected += [round * 10, round * 10 + 1] }
        var delivered: [Int64] = []
        while delivered.count < expected.count, let change = await changes.next() {
            if case .int(let count)? = change.value { delivered.append(count) }
        }
        #expect(delivered == expected)
        #expect(storage.openSequenceCount == 0)
        #expect(storage.waitingWriterCount == 0)
    }
}
