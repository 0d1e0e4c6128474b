import Foundation
import StoredSettings
import Testing

/// What the durability hook saw of one file: how many times each step ran.
private struct StepCounts: Sendable {
    var fileSyncs = 0
    var folderSyncs = 0
    var renames = 0
}

/// A store on a fresh file whose first durable write is held inside its file `fsync` until
/// ``release()``; every step is counted, and `failFrom` makes the file `fsync` of that round
/// and later ones throw.
private final class HeldStore: Sendable {
    let folder: ScratchFolder
    let store: FileStore
    let counts = AwaitableState(StepCounts())
    let gate = ThreadTest.Gate()

    init(failingFromRound failFrom: Int? = nil) throws {
        folder = try ScratchFolder()
        let counts = counts
        let gate = gate
        var options = FileStore.Options(changeCheckInterval: nil)
        options.durabilityHook = DurabilityHook { step in
            switch step {
            case .fileSync:
                let round = counts.withLock {
                    $0.fileSyncs += 1
                    return $0.fileSyncs
                }
                if round == 1 { gate.wait() }
                if let failFrom, round >= failFrom {
                    throw StorageError(.io, message: "injected fsync failure")
                }
            case .rename: counts.withLock { $0.renames += 1 }
            case .folderSync: counts.withLock { $0.folderSyncs += 1 }
            }
            return true
        }
        store = try FileStore(url: folder.file("settings.json"), options: options)
    }

    func release() { gate.open() }
}

/// The outcomes of writer threads, each recorded once it returned.
private typealias Outcomes = AwaitableState<[String: Result<Void, StorageError>]>

/// Starts a thread that writes `value` under `key`, recording the outcome under `name`.
private func startWriter(_ store: FileStore, key: String, value: StoredValue, name: String, outcomes: Outcomes) {
    let thread = Thread {
        let outcome: Result<Void, StorageError>
        do {
            try store.setValue(value, forKey: key)
            outcome = .success(())
        } catch let error as StorageError {
            outcome = .failure(error)
        } catch {
            outcome = .failure(StorageError(.io, message: "\(error)"))
        }
        outcomes.withLock { $0[name] = outcome }
    }
    thread.start()
}

/// Holds a first writer inside its file `fsync`, then queues `writes` behind it one after the
/// other (each known queued before the next starts, so the queue order is the list's), then
/// lets the first writer go and waits for every writer to return.
private func runQueuedBehindHeldWriter(_ held: HeldStore, writes: [(key: String, value: StoredValue)]) async -> [String:
    Result<Void, StorageError>]
{
    let outcomes = Outcomes([:])
    startWriter(held.store, key: "first", value: .int(0), name: "first", outcomes: outcomes)
    await held.counts.wait { $0.fileSyncs == 1 }
    for (index, write) in writes.enumerated() {
        startWriter(held.store, key: write.key, value: write.value, name: "\(index)", outcomes: outcomes)
        await held.store.queuedWrites.wait { $0 == index + 1 }
    }
    held.release()
    return await outcomes.wait { $0.count == writes.count + 1 }
}

/// Group commit: `setValue` calls waiting on one another share one write and its `fsync`s.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreGroupCommitTests {
    @Test func writersQueuedBehindAWriteShareOneFileSyncAndOneFolderSync() async throws {
        let held = try HeldStore()
        let writes = (0..<7).map { (key: "key\($0)", value: StoredValue.int(Int64($0))) }
        let outcomes = await runQueuedBehindHeldWriter(held, writes: writes)

        for (name, outcome) in outcomes { #expect((try? outcome.get()) != nil, "\(name): \(outcome)") }
        let counts = held.counts.value
        #expect(counts.fileSyncs == 2)
        #expect(counts.renames == 2)
        #expect(counts.folderSyncs == 2)
        let reopened = try FileStore(
            url: held.folder.file("settings.json"), options: FileStore.Options(changeCheckInterval: nil))
        #expect(reopened.value(forKey: "first") == .int(0))
        for write in writes { #expect(reopened.value(forKey: write.key) == write.value) }
    }

    /// The counter tests wait on says how many writes wait now: none once their group is in.
    @Test func noWriteCountsAsQueuedOnceItsGroupIsCommitted() async throws {
        let held = try HeldStore()
        let writes = (0..<3).map { (key: "key\($0)", value: StoredValue.int(Int64($0))) }
        let outcomes = await runQueuedBehindHeldWriter(held, writes: writes)
        for (name, outcome) in outcomes { #expect((try? outcome.get()) != nil, "\(name): \(outcome)") }
        #expect(held.store.queuedWrites.value == 0)
    }

    @Test func groupedWritesOfOneKeyLandAndAreDeliveredInQueueOrder() async throws {
        let held = try HeldStore()
        var changes = held.store.changes().makeAsyncIterator()
        let writes = (1...5).map { (key: "count", value: StoredValue.int(Int64($0))) }
        let outcomes = await runQueuedBehindHeldWriter(held, writes: writes)

        for (name, outcome) in outcomes { #expect((try? outcome.get()) != nil, "\(name): \(outcome)") }
        #expect(held.counts.value.fileSyncs == 2)
        var delivered: [StoredChange] = []
        for _ in 0..<6 { if let change = await changes.next() { delivered.append(change) } }
        #expect(delivered.map(\.key) == ["first"] + Array(repeating: "count", count: 5))
        #expect(delivered.dropFirst().map(\.value) == writes.map(\.value))
        #expect(held.store.value(forKey: "count") == .int(5))
        let reopened = try FileStore(
            url: held.folder.file("settings.json"), options: FileStore.Options(changeCheckInterval: nil))
        #expect(reopened.value(forKey: "count") == .int(5))
    }

    @Test func aFailedGroupFsyncFailsEveryMemberAndKeepsTheOldValues() async throws {
        let held = try HeldStore(failingFromRound: 2)
        let writes = (0..<4).map { (key: "key\($0)", value: StoredValue.int(Int64($0))) }
        let outcomes = await runQueuedBehindHeldWriter(held, writes: writes)

        #expect((try? outcomes["first"]?.get()) != nil)
        for index in writes.indices {
            guard case .failure(let error)? = outcomes["\(index)"] else {
                Issue.record("write \(index) did not fail: \(String(describing: outcomes["\(index)"]))")
                continue
            }
            #expect(error.code == .io)
            #expect(error.message?.contains("injected fsync failure") == true)
            #expect(error.key == "key\(index)")
        }
        #expect(held.counts.value.fileSyncs == 2)
        for write in writes { #expect(held.store.value(forKey: write.key) == nil) }
        #expect(held.store.keys() == ["first"])
        let reopened = try FileStore(
            url: held.folder.file("settings.json"), options: FileStore.Options(changeCheckInterval: nil))
        #expect(reopened.keys() == ["first"])
        #expect(try held.folder.names() == ["settings.json", "settings.json.lock"])
    }

    @Test func aGroupMemberThatCannotBeEncodedFailsAloneAndTheOthersLand() async throws {
        let held = try HeldStore()
        let writes: [(key: String, value: StoredValue)] = [
            ("before", .int(1)), ("notANumber", .double(.nan)), ("after", .int(2)),
        ]
        let outcomes = await runQueuedBehindHeldWriter(held, writes: writes)

        #expect((try? outcomes["0"]?.get()) != nil)
        #expect((try? outcomes["2"]?.get()) != nil)
        guard case .failure(let error)? = outcomes["1"] else {
            Issue.record("the NaN write did not fail: \(String(describing: outcomes["1"]))")
            return
        }
        #expect(error.code == .encodingFailed)
        #expect(error.key == "notANumber")
        #expect(held.store.value(forKey: "notANumber") == nil)
        let reopened = try FileStore(
            url: held.folder.file("settings.json"), options: FileStore.Options(changeCheckInterval: nil))
        #expect(Set(reopened.keys()) == ["first", "before", "after"])
    }

    @Test func aGroupMemberWithACanonicallyEquivalentKeyFailsAloneAndTheOthersLand() async throws {
        let held = try HeldStore()
        let writes: [(key: String, value: StoredValue)] = [
            ("caf\u{E9}", .int(1)), ("cafe\u{301}", .int(2)), ("other", .int(3)),
        ]
        let outcomes = await runQueuedBehindHeldWriter(held, writes: writes)

        #expect((try? outcomes["0"]?.get()) != nil)
        #expect((try? outcomes["2"]?.get()) != nil)
        guard case .failure(let error)? = outcomes["1"] else {
            Issue.record("the equivalent key's write did not fail: \(String(describing: outcomes["1"]))")
            return
        }
        #expect(error.code == .invalidKey)
        #expect(held.counts.value.fileSyncs == 2)
        #expect(held.store.value(forKey: "caf\u{E9}") == .int(1))
        #expect(held.store.value(forKey: "other") == .int(3))
    }

    @Test func aReportHandlerMayWriteTheStoreWhoseWriteReportedAndBothWritesLand() throws {
        let folder = try ScratchFolder()
        var options = FileStore.Options(changeCheckInterval: nil)
        options.corruptFilePolicy = .moveAside
        let store = try FileStore(url: folder.file("settings.json"), options: options)
        try store.setValue(.int(1), forKey: "before")
        // Another program leaves a file that does not parse: the next write moves it aside
        // and reports that, from the thread leading the write.
        try Data("{ broken".utf8).write(to: folder.file("settings.json"))
        let reported = Lock<[StorageError.Code]>([])
        try StorageErrorReporter.withHandler({ error in
            reported.withLock { $0.append(error.code) }
            try? store.setValue(.int(7), forKey: "fromHandler")
        }) {
            try store.setValue(.int(2), forKey: "after")
        }
        #expect(reported.value.contains(.dataCorrupted))
        #expect(store.value(forKey: "after") == .int(2))
        #expect(store.value(forKey: "fromHandler") == .int(7))
        let reopened = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        #expect(reopened.value(forKey: "fromHandler") == .int(7))
        #expect(reopened.value(forKey: "after") == .int(2))
    }
}
