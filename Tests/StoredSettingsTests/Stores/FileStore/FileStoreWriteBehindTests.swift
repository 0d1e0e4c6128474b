import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// What the durability hook saw of one file's writes.
private struct Writes: Sendable {
    /// How many file `fsync`s ran.
    var syncs = 0
    /// How many of them ran inside a setter call, on its thread.
    var onCallerThread = 0
}

/// A write-behind store on a fresh file, whose writes the durability hook counts; the first
/// one waits inside its file `fsync` until ``gate`` opens when `holdFirstWrite` is set.
private final class BehindStore: Sendable {
    let folder: ScratchFolder
    let url: URL
    let store: FileStore
    let writes = AwaitableState(Writes())
    let gate = ThreadTest.Gate()
    /// The thread of the test's setter call in progress.
    let caller = Lock<ThreadIdentity?>(nil)

    init(holdFirstWrite: Bool = false) throws {
        folder = try ScratchFolder()
        url = folder.file("settings.json")
        let (writes, gate, caller) = (writes, gate, caller)
        var options = FileStore.Options(changeCheckInterval: nil, writeMode: .writeBehind)
        options.durabilityHook = DurabilityHook { step in
            guard step == .fileSync else { return true }
            let onCaller = caller.withLock { $0 == .current }
            let round = writes.withLock {
                $0.syncs += 1
                if onCaller { $0.onCallerThread += 1 }
                return $0.syncs
            }
            if holdFirstWrite, round == 1 { gate.wait() }
            return true
        }
        store = try FileStore(url: url, options: options)
    }

    /// Sets `key` from the calling thread, which the hook recognizes while the setter runs.
    func set(_ value: StoredValue?, forKey key: String) throws {
        caller.withLock { $0 = .current }
        defer { caller.withLock { $0 = nil } }
        try store.setValue(value, forKey: key)
    }

    /// What a fresh store reads from the file now.
    func onDisk(_ key: String) throws -> StoredValue? {
        try FileStore(url: url, options: quietOptions).value(forKey: key)
    }
}

/// `FileStore.Options.writeMode = .writeBehind`: setters return after the in-memory commit and
/// one background writer makes the changes durable.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreWriteBehindTests {
    @Test func setterLeavesTheDurableWriteToTheBackgroundWriterAndFlushWaitsForIt() throws {
        let behind = try BehindStore()
        try behind.set(.int(1), forKey: "count")
        #expect(behind.store.value(forKey: "count") == .int(1))
        try behind.store.flush()
        #expect(behind.writes.value.syncs >= 1)
        #expect(behind.writes.value.onCallerThread == 0, "the setter's thread made the durable write")
        #expect(try behind.onDisk("count") == .int(1))
    }

    @Test func settersWhileTheWriterIsBusyReturnAtOnceAndAreWrittenAsOne() async throws {
        let behind = try BehindStore(holdFirstWrite: true)
        try behind.set(.int(1), forKey: "count")
        await behind.writes.wait { $0.syncs == 1 }
        // The writer is held inside its `fsync`: these must not wait for it.
        for number in 2...20 { try behind.set(.int(Int64(number)), forKey: "count") }
        try behind.set(.string("x"), forKey: "other")
        #expect(behind.store.value(forKey: "count") == .int(20))
        #expect(try behind.onDisk("count") == nil, "the held write has not been renamed into place yet")
        behind.gate.open()
        try behind.store.flush()
        #expect(try behind.onDisk("count") == .int(20))
        #expect(try behind.onDisk("other") == .string("x"))
        #expect(behind.writes.value.syncs == 2, "the 20 writes behind the held one were not coalesced")
    }

    /// An in-memory store's update body holds no lock the file's writers wait on: a setter it
    /// calls still returns before the file is written, as from anywhere else.
    @Test func aSetterCalledFromAnInMemoryStoresUpdateBodyIsStillWrittenBehind() throws {
        let behind = try BehindStore()
        let memory = InMemoryStore(["n": .int(0)])
        try memory.update(forKey: "n") { value in
            try behind.set(.int(1), forKey: "count")
            value = .int(1)
        }
        try behind.store.flush()
        #expect(behind.writes.value.onCallerThread == 0, "the setter's thread made the durable write")
        #expect(try behind.onDisk("count") == .int(1))
    }

    @Test func changesAreDeliveredOnceAtTheSetterAndNotAgainWhenWritten() async throws {
        let behind = try BehindStore()
        let stream = behind.store.changes()
        try behind.set(.int(1), forKey: "count")
        try behind.set(.int(2), forKey: "count")
        try behind.store.flush()
        try behind.set(.bool(true), forKey: "end")
        var seen: [StoredChange] = []
        for await change in stream {
            seen.append(change)
            if change.key == "end" { break }
        }
        #expect(
            seen == [
                StoredChange(key: "count", value: .int(1)), StoredChange(key: "count", value: .int(2)),
                StoredChange(key: "end", value: .bool(true)),
            ])
    }

    @Test func anotherWritersKeysAreKeptAndAPendingValueIsNotUndoneByTheirArrival() throws {
        let behind = try BehindStore(holdFirstWrite: false)
        let other = try FileStore(url: behind.url, options: quietOptions)
        try other.setValue(.string("theirs"), forKey: "other")
        try behind.set(.string("mine"), forKey: "mine")
        try behind.store.reload()
        #expect(behind.store.value(forKey: "mine") == .string("mine"))
        #expect(behind.store.value(forKey: "other") == .string("theirs"))
        try behind.store.flush()
        #expect(try behind.onDisk("mine") == .string("mine"))
        #expect(try behind.onDisk("other") == .string("theirs"))
    }

    @Test func anUpdateOrBatchOfAKeyWhoseSetIsNotWrittenYetIsNotUndoneByTheWriter() throws {
        // Three rounds: the background writer may win the race to the file lock in one.
        for round: Int64 in 1...3 {
            let behind = try BehindStore()
            try behind.set(.int(round), forKey: "count")
            try behind.set(.string("a"), forKey: "name")
            try behind.store.update(forKey: "count") { $0 = .int(100 + round) }
            try behind.store.batch { try $0.setValue(.string("b"), forKey: "name") }
            #expect(behind.store.value(forKey: "count") == .int(100 + round))
            #expect(behind.store.value(forKey: "name") == .string("b"))
            try behind.store.flush()
            #expect(try behind.onDisk("count") == .int(100 + round))
            #expect(try behind.onDisk("name") == .string("b"))
            #expect(behind.store.value(forKey: "count") == .int(100 + round))
        }
    }

    @Test func removalIsWrittenBehindToo() throws {
        let behind = try BehindStore()
        try behind.set(.int(1), forKey: "count")
        try behind.store.flush()
        try behind.set(nil, forKey: "count")
        #expect(behind.store.value(forKey: "count") == nil)
        try behind.store.flush()
        #expect(try behind.onDisk("count") == nil)
    }

    @Test func flushOnADurableStoreReturnsAtOnce() throws {
        let folder = try ScratchFolder()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        try store.setValue(.int(1), forKey: "count")
        try store.flush()
        #expect(try folder.names() == ["settings.json", "settings.json.lock"])
    }

    @Test func locationSaysTheStoreWritesBehind() throws {
        let behind = try BehindStore()
        #expect(behind.store.location == behind.url.path + " (write-behind)")
        #expect(try FileStore(url: behind.url, options: quietOptions).location == behind.url.path)
    }

    @Test func anInvalidKeyIsRefusedByTheSetterItself() throws {
        let behind = try BehindStore()
        #expect(throws: StorageError.self) { try behind.set(.int(1), forKey: "") }
        try behind.store.flush()
        #expect(behind.writes.value.syncs == 0)
    }
}

/// A write-behind writer killed with SIGKILL never leaves a torn or mixed file, and loses at
/// most the writes it had not flushed.
@Suite(.timeLimit(.minutes(30)))
struct FileStoreWriteBehindCrashTests {
    @Test func killedWriteBehindProcessKeepsEveryFlushedWriteAndAWholeFile() async throws {
        let size = 100_000
        for round in 0..<TestScale.pick(quick: 12, full: 200) {
            let folder = try ScratchFolder()
            let url = folder.file("settings.json")
            let child = try ChildProcess.launch(["write-behind-crash", url.path, String(size)])
            let (exitCode, output) = await child.finish()
            #expect(exitCode == nil && output.contains("armed"), "round \(round): \(output)")
            let flushed =
                output.split(separator: "\n").compactMap { line -> Int64? in
                    line.hasPrefix("flushed ") ? Int64(line.dropFirst("flushed ".count)) : nil
                }.last ?? 0
            let reopened = try FileStore(url: url, options: quietOptions)
            guard case .int(let count)? = reopened.value(forKey: "count"),
                case .string(let text)? = reopened.value(forKey: "text")
            else {
                Issue.record("round \(round): a value is missing: \(reopened.keys())")
                continue
            }
            #expect(count >= flushed, "round \(round): flushed \(flushed), the file holds \(count)")
            #expect(text.utf8.count == size, "round \(round): \(text.utf8.count) bytes")
            let letter = text.utf8.first ?? 0
            #expect(text.utf8.allSatisfy { $0 == letter }, "round \(round): the text mixes two writes")
            // The text is set before the count, so the file holds the count's text or the next.
            let expected = [count, count + 1].map { UInt8(ascii: "A") + UInt8($0 % 26) }
            #expect(expected.contains(letter), "round \(round): text \(letter) with count \(count)")
        }
    }
}
