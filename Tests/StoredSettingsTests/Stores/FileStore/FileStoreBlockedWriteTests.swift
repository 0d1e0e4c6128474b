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

/// A store whose write waits for another process's lock never holds up the change checks of
/// the other stores of the process: the checks share one event thread (and one scheduler
/// thread), and a check never waits for a write.
#if os(Linux)
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreBlockedWriteTests {
    @Test func aWriteWaitingForAStoppedWritersLockDelaysNoOtherStoresChanges() async throws {
        let folder = try ScratchFolder()
        let a = folder.file("a.json")
        let b = folder.file("b.json")
        // Opened first, so that its checks run first for an event of their shared folder.
        let storeA = try FileStore(url: a)
        let storeB = try FileStore(url: b)
        var changesOfA = storeA.changes().makeAsyncIterator()
        var changesOfB = storeB.changes().makeAsyncIterator()
        // Both watch: each sees another writer's change.
        try FileStore(url: a, options: quietOptions).setValue(.int(1), forKey: "k")
        #expect(await changesOfA.next() == StoredChange(key: "k", value: .int(1)))
        try FileStore(url: b, options: quietOptions).setValue(.int(1), forKey: "k")
        #expect(await changesOfB.next() == StoredChange(key: "k", value: .int(1)))

        guard let writer = try writerStoppedMidWrite(a, size: 1_000_000) else { return }
        defer { writer.sendKill() }
        let waiting = ThreadTest.resultOnNewThread { try storeA.setValue(.string("mine"), forKey: "w") }
        await waitUntilBlockedOnLock(of: a.path + ".lock")
        // A version of `a` store A has not seen (someone saving without the lock): its check
        // would need the file lock, held by the waiting write.
        try Data(#"{"k": 2}"#.utf8).write(to: a, options: .atomic)
        try FileStore(url: b, options: quietOptions).setValue(.int(2), forKey: "k")
        #expect(await changesOfB.next() == StoredChange(key: "k", value: .int(2)))

        // Once the lock is free, the write goes ahead on the file as it is then.
        writer.sendKill()
        _ = await writer.finish()
        try waiting()
        #expect(storeA.value(forKey: "k") == .int(2))
        #expect(try FileStore(url: a, options: quietOptions).value(forKey: "w") == .string("mine"))
    }
}
#endif
