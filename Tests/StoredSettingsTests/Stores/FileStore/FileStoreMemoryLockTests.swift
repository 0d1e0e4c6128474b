import Foundation
import Testing

@testable import StoredSettings

/// One `FileStore.memory` lock: commits of every kind publish in commit order while streams
/// end, subscribe and handlers write back, and nothing waits for ever.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreMemoryLockTests {
    @Test func streamsSeeOneWritersValuesInOrderWhileOthersEndAndHandlersWrite() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let store = try FileStore(
            url: url, options: FileStore.Options(changeCheckInterval: nil, writeMode: .writeBehind))
        let other = try FileStore(url: url, options: quietOptions)
        let rounds: Int64 = 600
        let handlerCalls = AwaitableState(0)
        // A key handler (the Observation relay's kind) reads the store and writes it back, from
        // whatever thread delivers it.
        let relay = store.keyHandlerSubscription()
        relay.follow("n") { [store] change in
            _ = store.value(forKey: "n")
            let count = handlerCalls.withLock { count in
                count += 1
                return count
            }
            if count % 7 == 0 { try? store.update(forKey: "echo") { $0 = change.value } }
            if count % 5 == 0 { try? store.setValueInBackground(change.value, forKey: "echoBehind") }
        }
        defer { relay.end() }

        // Readers that keep the first `wanted` values and then drop their iterator.
        let readers = (0..<6).map { index in
            let stream = store.changes()
            return Task { () -> [Int64] in
                var seen: [Int64] = []
                for await change in stream where change.key == "n" {
                    guard case .int(let value) = change.value else { continue }
                    seen.append(value)
                    if seen.count == 20 + index * 30 { break }
                }
                return seen
            }
        }
        // Streams cancelled from the writer's thread while commits yield to the others.
        let doomed = (0..<8).map { _ in
            let stream = store.changes()
            return Task {
                var count = 0
                for await _ in stream { count += 1 }
                return count
            }
        }
        let writer = Task.detached {
            for value in 1...rounds {
                if value % 10 == 0 {
                    try store.update(forKey: "n") { $0 = .int(value) }
                } else {
                    try store.setValueInBackground(.int(value), forKey: "n")
                }
                if value % 75 == 0 { doomed[Int(value / 75 - 1)].cancel() }
                if value % 50 == 0 {
                    // Another store's write of another key, found by a reload.
                    try other.setValue(.int(value), forKey: "elsewhere")
                    try store.reload()
                }
                // A subscription made and dropped during the commits.
                if value % 13 == 0 { _ = store.subscription(readingValueForKey: "n") }
            }
        }
        try await writer.value
        try store.flush()

        for reader in readers {
            let seen = await reader.value
            #expect(zip(seen, seen.dropFirst()).allSatisfy { $0 < $1 }, "\(seen)")
        }
        for task in doomed { _ = await task.value }
        #expect(store.value(forKey: "n") == .int(rounds))
        #expect(try FileStore(url: url, options: quietOptions).value(forKey: "n") == .int(rounds))
        #expect(store.value(forKey: "elsewhere") == .int(rounds - rounds % 50))
    }
}

/// Notes, when it goes, whether its thread held the store's memory lock.
private final class MemoryCanary: Sendable {
    let store: FileStore
    let heldOnRelease: Lock<Bool?>

    init(store: FileStore, heldOnRelease: Lock<Bool?>) {
        self.store = store
        self.heldOnRelease = heldOnRelease
    }

    deinit {
        // Only this thread uses the store: a taken lock is this thread's own.
        let held = store.memory.withLockIfAvailable { _ in } == nil
        heldOnRelease.withLock { $0 = held }
    }
}

extension FileStoreMemoryLockTests {
    @Test func endingAKeySetSubscriptionReleasesItsHandlerOutsideTheMemoryLock() throws {
        let folder = try ScratchFolder()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        let heldOnRelease = Lock<Bool?>(nil)
        let end: @Sendable () -> Void
        do {
            let canary = MemoryCanary(store: store, heldOnRelease: heldOnRelease)
            let subscription = store.keySetSubscription { _ in _ = canary }
            subscription.follow("k")
            end = subscription.end
        }
        end()
        // A deinit that read the store there would wait for ever on its own thread's lock.
        #expect(heldOnRelease.value == false)
    }
}

extension FileStoreMemoryLockTests {
    @Test func onlyWritesWaitForADurableWriteHeldInItsFileSync() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let inSync = DispatchSemaphore(value: 0)
        let gate = ThreadTest.Gate()
        var options = FileStore.Options(changeCheckInterval: nil)
        options.durabilityHook = DurabilityHook { step in
            if step == .fileSync {
                inSync.signal()
                gate.wait()
            }
            return true
        }
        let store = try FileStore(url: url, options: options)
        let durable = ThreadTest.resultOnNewThread { try store.setValue(.int(1), forKey: "held") }
        inSync.wait()
        defer { gate.open() }
        // The background setter, a read, a subscription, a key-set follower and the change
        // check all return while `file` is held across the `fsync`.
        try store.setValueInBackground(.int(2), forKey: "behind")
        #expect(store.value(forKey: "behind") == .int(2))
        let subscription = store.subscription(readingValueForKey: "held")
        #expect(subscription.value == nil)
        let relay = store.keyHandlerSubscription()
        relay.follow("held") { _ in }
        relay.end()
        store.checkForExternalChange()
        gate.open()
        try durable()
        #expect(store.value(forKey: "held") == .int(1))
    }
}

extension FileStoreMemoryLockTests {
    /// A call held back until an enclosing `update` body returns may start after `end`; a change
    /// committed after `end` reaches no handler.
    @Test func noChangeCommittedAfterAKeySetSubscriptionEndsReachesItsHandler() throws {
        let folder = try ScratchFolder()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        let outer = try FileStore(url: folder.file("outer.json"), options: quietOptions)
        let seen = Lock<[StoredValue?]>([])
        let subscription = store.keySetSubscription { change in seen.withLock { $0.append(change.value) } }
        subscription.follow("k")
        try outer.update(forKey: "outer") { value in
            try store.setValue(.int(1), forKey: "k")
            subscription.end()
            value = .int(1)
        }
        try store.setValue(.int(2), forKey: "k")
        #expect(seen.value == [.int(1)])
    }
}
