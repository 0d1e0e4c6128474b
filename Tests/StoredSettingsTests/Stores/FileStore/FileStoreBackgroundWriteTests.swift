import Foundation
import StoredSettings
import StoredSettingsTestSupport
import TestHelpers
import Testing

#if os(Linux)
/// Another process holding a file's `flock`: util-linux's `flock` running `cat`, which holds it
/// until its standard input closes.
private final class LockHoldingProcess {
    private let process = Process()
    private let input = Pipe()

    /// Starts the process and returns once it holds the lock at `path`.
    init(path: String) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/flock")
        process.arguments = ["--exclusive", path, "sh", "-c", "echo locked; exec cat"]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The line comes once `flock` holds the lock: an event, not a clock.
        let line = output.fileHandleForReading.availableData
        #expect(String(decoding: line, as: UTF8.self) == "locked\n")
    }

    /// Releases the lock and waits for the process to end.
    func release() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

/// `Stored.saveWithoutWaiting(_:)` and `FileStore.setValueInBackground(_:forKey:)`: what an
/// app's main thread writes through, on a durable store.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreBackgroundWriteTests {
    @Test func aSaveWithoutWaitingReturnsWhileAnotherProcessHoldsTheLock() async throws {
        let file = try TemporaryFileStore(options: FileStore.Options(changeCheckInterval: nil))
        let store = file.fileStore
        try store.setValue(.int(1), forKey: "volume") // durable: the file and its lock exist
        let volume = Stored("volume", default: 0, store: store)
        let changes = store.changes()
        let holder = try LockHoldingProcess(path: file.url.path + ".lock")

        // A durable setter would wait for the other process here, for as long as it holds on.
        try volume.saveWithoutWaiting(2)

        #expect(Stored("volume", default: 0, store: store).wrappedValue == 2)
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == StoredChange(key: "volume", value: .int(2)))
        #expect(try FileStore(url: file.url, options: quietOptions).value(forKey: "volume") == .int(1))
        holder.release()
        try store.flush()
        #expect(try FileStore(url: file.url, options: quietOptions).value(forKey: "volume") == .int(2))
    }

    @Test func changesMadeWhileTheWriterWaitsAreWrittenAsOneFile() throws {
        let hooks = DurabilityHookSwitch()
        let file = try TemporaryFileStore(options: FileStore.Options(changeCheckInterval: nil).hooked(hooks))
        let store = file.fileStore
        try store.setValue(.int(0), forKey: "step")
        let syncs = Lock(0)
        hooks.install { step in
            if step == .fileSync { syncs.withLock { $0 += 1 } }
            return true
        }
        defer { hooks.remove() }
        let holder = try LockHoldingProcess(path: file.url.path + ".lock")
        let step = Stored("step", default: 0, store: store)

        for value in 1...50 { try step.saveWithoutWaiting(value) } // a slider's steps
        holder.release()
        try store.flush()

        #expect(syncs.withLock { $0 } == 1)
        #expect(try FileStore(url: file.url, options: quietOptions).value(forKey: "step") == .int(50))
    }

    @Test func aFailedBackgroundWriteIsReportedAndWrittenByTheNextFlush() async throws {
        let hooks = DurabilityHookSwitch()
        let file = try TemporaryFileStore(options: FileStore.Options(changeCheckInterval: nil).hooked(hooks))
        let store = file.fileStore
        try store.setValue(.int(1), forKey: "volume")
        let target = try FileSystem.resolvingSymbolicLinks(file.url.path)
        let failures = AwaitableState(0)
        hooks.install { step in
            guard step == .fileSync else { return true }
            failures.withLock { $0 += 1 }
            throw StorageError(.io, location: target, message: "the disk is full")
        }
        let reports = AwaitableState<[StorageError]>([])
        try StorageErrorReporter.withHandler({ error in reports.withLock { $0.append(error) } }) {
            try Stored("volume", default: 0, store: store).saveWithoutWaiting(2)
            #expect(throws: StorageError.self) { try store.flush() }
        }
        // The background run and the flush each tried once, in either order; the run reports
        // its failure after its try, so its report is what is waited for (the flush throws).
        await failures.wait { $0 == 2 }
        let reported = await reports.wait { !$0.isEmpty }
        hooks.remove()

        #expect(reported.contains { $0.code == .io && $0.description.contains("the disk is full") })
        #expect(store.value(forKey: "volume") == .int(2))
        try store.flush()
        #expect(try FileStore(url: file.url, options: quietOptions).value(forKey: "volume") == .int(2))
    }

    @Test func aPendingChangeTheFileNoLongerTakesIsStillRefusedAfterAnUpdate() async throws {
        let hooks = DurabilityHookSwitch()
        let file = try TemporaryFileStore(options: FileStore.Options(changeCheckInterval: nil).hooked(hooks))
        let store = file.fileStore
        try store.setValue(.int(0), forKey: "j")
        let target = try FileSystem.resolvingSymbolicLinks(file.url.path)
        hooks.install { step in
            guard step == .fileSync else { return true }
            throw StorageError(.io, location: target, message: "the disk is full")
        }
        let reports = AwaitableState<[StorageError]>([])
        try StorageErrorReporter.withHandler({ error in reports.withLock { $0.append(error) } }) {
            try store.setValueInBackground(.int(1), forKey: "\u{212B}") // Å, ANGSTROM SIGN
        }
        await reports.wait { !$0.isEmpty } // the background write failed; the change waits
        hooks.remove()
        // Another program saves the file with the composed spelling of the key.
        try Data("{\"j\":0,\"\u{00C5}\":2}".utf8).write(to: URL(fileURLWithPath: target), options: .atomic)

        try store.update(forKey: "j") { $0 = .int(5) }

        let error = #expect(throws: StorageError.self) { try store.flush() }
        #expect(error?.code == .invalidKey)
        #expect(try FileStore(url: file.url, options: quietOptions).value(forKey: "\u{00C5}") == .int(2))
    }

    @Test func aDurableWriteAfterABackgroundWriteOfTheSameKeyWins() throws {
        let file = try TemporaryFileStore(options: FileStore.Options(changeCheckInterval: nil))
        let store = file.fileStore
        try store.setValueInBackground(.int(1), forKey: "volume")
        try store.setValue(.int(2), forKey: "volume")
        try store.flush()
        #expect(store.value(forKey: "volume") == .int(2))
        #expect(try FileStore(url: file.url, options: quietOptions).value(forKey: "volume") == .int(2))
    }

    @Test func whatTheFileCouldNeverHoldIsRefusedAtOnce() throws {
        let file = try TemporaryFileStore(
            options: FileStore.Options(maximumFileSize: 64, changeCheckInterval: nil))
        let store = file.fileStore
        #expect(throws: StorageError.self) { try store.setValueInBackground(.int(1), forKey: "") }
        let error = #expect(throws: StorageError.self) {
            try Stored("note", default: "", store: store).saveWithoutWaiting(String(repeating: "x", count: 100))
        }
        #expect(error?.code == .tooLarge)
        #expect(store.value(forKey: "note") == nil)
    }
}
#endif

/// A durable group commit and a background set that waits meanwhile, on one store.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreBackgroundAndGroupTests {
    @Test func everyChangeOfAGroupIsDeliveredWhileABackgroundSetWaits() async throws {
        let folder = try ScratchFolder()
        let hooks = DurabilityHookSwitch()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions.hooked(hooks))
        try store.setValue(.int(0), forKey: "k")
        let syncs = AwaitableState(0)
        let gate = ThreadTest.Gate()
        hooks.install { step in
            guard step == .fileSync else { return true }
            let round = syncs.withLock {
                $0 += 1
                return $0
            }
            if round == 1 { gate.wait() }
            // During the group's write: a setting elsewhere in the app changes, in the background.
            if round == 2 { try store.setValueInBackground(.int(9), forKey: "unrelated") }
            return true
        }
        defer { hooks.remove() }
        let changes = RecordedStream(store.changes())
        let done = AwaitableState(0)
        let write: @Sendable (Int64) -> Void = { value in
            Thread {
                try? store.setValue(.int(value), forKey: "k")
                done.withLock { $0 += 1 }
            }.start()
        }
        write(1)
        await syncs.wait { $0 == 1 }
        write(2)
        await store.queuedWrites.wait { $0 == 1 }
        write(3)
        await store.queuedWrites.wait { $0 == 2 }
        gate.open()
        await done.wait { $0 == 3 }
        try store.flush()
        // Committed after every other change, so once it arrives the stream holds them all.
        try store.setValue(.bool(true), forKey: "end")

        let delivered = await changes.waitFor { $0.key == "end" }
        #expect(delivered.filter { $0.key == "k" }.map(\.value) == [.int(1), .int(2), .int(3)])
        #expect(delivered.filter { $0.key == "unrelated" }.map(\.value) == [.int(9)])
    }
}
