import Foundation
import StoredSettings
import TestHelpers
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How a FileStore learns that its file changed: from the platform's file events, not from a
/// timer. Every wait is for an event (a change delivered, a child process's exit).
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreEventTests {
    /// The idle store asks to poll every millisecond, the shortest interval: where its file
    /// is polled, it checks many times while a child process starts, writes and exits.
    /// Lost events (the kernel's queue overflowing while a loaded machine starves the event
    /// thread) rightly make every store check once: such checks are the only ones allowed.
    @Test func storeWithNothingChangingMakesNoChangeChecks() async throws {
        let idleFolder = try ScratchFolder()
        // Written before the store opens: events of its own write would start checks.
        try FileStore(url: idleFolder.file("settings.json"), options: quietOptions).setValue(.int(1), forKey: "k")
        #if os(Linux) || os(Android)
        // An event about the idle folder made just before the store watches it, as a loaded
        // machine delivers one late: a store watching the folder's parent queues it, and it
        // reaches the idle store once its watches exist.
        let neighbourFolder = try ScratchFolder()
        let neighbour = try FileStore(url: neighbourFolder.file("settings.json"))
        FolderEvents.shared.afterNextWalk(of: FileStore.absolutePath(of: idleFolder.file("settings.json"))) {
            _ = chmod(idleFolder.path, 0o700)
        }
        #endif
        let idle = try FileStore(
            url: idleFolder.file("settings.json"), options: FileStore.Options(changeCheckInterval: .milliseconds(1)))
        let busyFolder = try ScratchFolder()
        #if os(Linux) || os(Android)
        // The busy store places its watches off the opening thread, then looks at its file once,
        // a look that counts no check: a write the child made before that look would reach the
        // test with no check counted. A write made between its walk and its watches is seen by
        // that look alone, so once it arrives, the child's writes can only be seen by checks.
        let busyURL = busyFolder.file("settings.json")
        FolderEvents.shared.afterNextWalk(of: FileStore.absolutePath(of: busyURL)) {
            try? Data(#"{"watched": true}"#.utf8).write(to: busyURL, options: .atomic)
        }
        #endif
        let busy = try FileStore(url: busyFolder.file("settings.json"))
        var events = busy.changes().makeAsyncIterator()
        #if os(Linux) || os(Android)
        // Subscribed after the open: that look may have run already, and only it holds the value.
        if busy.value(forKey: "watched") == nil {
            #expect(await events.next() == StoredChange(key: "watched", value: .bool(true)))
        }
        // The stores' watches were placed in the order they opened, so the idle store watches
        // now. Events queue in order: once this write's event arrives, every event made before
        // the idle store watched was delivered, and only checks counted from here are its own.
        try Data(#"{"watched": true, "barrier": true}"#.utf8).write(to: busyURL, options: .atomic)
        #expect(await events.next() == StoredChange(key: "barrier", value: .bool(true)))
        let checksBefore = idle.changeCheckCount
        let overflowsBefore = FolderEvents.shared.overflowCount
        #endif

        _ = try await ChildProcess.run(["write-keys", busyFolder.file("settings.json").path, "key", "3"])
        // Writes close together may arrive as one reload: wait until every key has come.
        var seen: Set<String> = []
        while seen.count < 3, let change = await events.next() {
            #expect(change.value == .bool(true))
            seen.insert(change.key)
        }
        #expect(seen == ["key-0", "key-1", "key-2"])
        #if os(Linux) || os(Android)
        let checks = idle.changeCheckCount - checksBefore
        let overflows = FolderEvents.shared.overflowCount - overflowsBefore
        #expect(checks <= overflows, "\(checks) checks, \(overflows) event queue overflows")
        #elseif canImport(Darwin)
        #expect(idle.changeCheckCount == 0)
        #endif
        #expect(busy.changeCheckCount > 0)
        #if os(Linux) || os(Android)
        withExtendedLifetime(neighbour) {}
        #endif
    }

    /// The watch is placed after the open returns: a file replaced at once, likely before the
    /// watch exists, is still seen (by the look the store takes once it watches).
    @Test func fileReplacedRightAfterOpenIsSeen() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try Data(#"{"k": 1}"#.utf8).write(to: url)
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()

        try Data(#"{"k": 2}"#.utf8).write(to: url, options: .atomic)
        #expect(await events.next() == StoredChange(key: "k", value: .int(2)))
    }

    @Test func storeOpenedBeforeItsFolderExistsSeesTheFirstWrite() async throws {
        let folder = try ScratchFolder()
        let url = folder.url.appendingPathComponent("a/b/settings.json")
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()

        let writer = try FileStore(url: url, options: quietOptions)
        try writer.setValue(.string("first"), forKey: "k")
        #expect(await events.next() == StoredChange(key: "k", value: .string("first")))
    }

    @Test func folderDeletedAndCreatedAgainIsWatchedAgain() async throws {
        let folder = try ScratchFolder()
        let sub = folder.url.appendingPathComponent("sub", isDirectory: true)
        let url = sub.appendingPathComponent("settings.json")
        try FileStore(url: url, options: quietOptions).setValue(.int(1), forKey: "k")
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()

        try FileManager.default.removeItem(at: sub)
        #expect(await events.next() == StoredChange(key: "k", value: nil))
        try FileStore(url: url, options: quietOptions).setValue(.int(2), forKey: "k")
        #expect(await events.next() == StoredChange(key: "k", value: .int(2)))
    }

    @Test func inPlaceSaveIsSeenWhenTheWriterClosesTheFile() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try FileStore(url: url, options: quietOptions).setValue(.int(1), forKey: "k")
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()

        // What an editor that saves in place does: truncate, write, close; same inode.
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data("{\n  \"k\" : 2\n}\n".utf8))
        try handle.close()
        #expect(await events.next() == StoredChange(key: "k", value: .int(2)))
    }

    @Test func fileReplacedByRenameIsSeen() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try FileStore(url: url, options: quietOptions).setValue(.int(1), forKey: "k")
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()

        let replacement = folder.file("replacement.json")
        try Data("{\"k\": 3}".utf8).write(to: replacement)
        #expect(rename(replacement.path, url.path) == 0)
        #expect(await events.next() == StoredChange(key: "k", value: .int(3)))
    }

    #if os(Linux) || os(Android)
    /// The descriptors of this process that are `inotify` instances (`/proc/self/fd` names
    /// them `anon_inode:inotify`).
    private func inotifyDescriptors() throws -> [Int32] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { name in
            guard let fd = Int32(name),
                let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(name)"),
                target == "anon_inode:inotify"
            else { return nil }
            return fd
        }
    }

    @Test func storesInManyFoldersShareOneCloseOnExecDescriptor() async throws {
        let folders = try (0..<4).map { _ in try ScratchFolder() }
        // A store places its watches later, off the opening thread: wait until each has walked
        // its path, which it does once the process's `inotify` instance exists.
        let walked = AwaitableState(0)
        for folder in folders {
            FolderEvents.shared.afterNextWalk(of: FileStore.absolutePath(of: folder.file("settings.json"))) {
                walked.withLock { $0 += 1 }
            }
        }
        let stores = try folders.map { try FileStore(url: $0.file("settings.json")) }
        await walked.wait { $0 == folders.count }
        let descriptors = try inotifyDescriptors()
        #expect(descriptors.count == 1)
        for fd in descriptors {
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0, "a child process must not inherit the descriptor")
        }
        withExtendedLifetime(stores) {}
    }
    #endif

    /// The check that the `rename` of a store's own write wakes finds the version that write
    /// is putting in place: it returns without waiting for the write (held here in the
    /// folder's `fsync`, holding the store's lock: a check that waited would hang), and the
    /// write's change is delivered once, by the write; a change by another store after it is
    /// still seen.
    @Test func checkDuringOwnWriteDoesNotWaitForItAndTheChangeComesOnce() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let hooks = DurabilityHookSwitch()
        let store = try FileStore(url: url, options: quietOptions.hooked(hooks))
        try store.setValue(.int(1), forKey: "k")
        var events = store.changes().makeAsyncIterator()
        let held = AwaitableState(false)
        let release = DispatchSemaphore(value: 0)
        // Only the store's first write after this is held.
        hooks.install { step in
            let first =
                step == .folderSync
                && held.withLock { held in
                    defer { held = true }
                    return !held
                }
            if first { release.wait() }
            return true
        }
        defer { hooks.remove() }
        let written = AwaitableState(false)
        Thread {
            try? store.setValue(.int(2), forKey: "k")
            written.withLock { $0 = true }
        }.start()
        await held.wait { $0 }

        store.checkForExternalChange()
        #expect(written.value == false)
        release.signal()
        await written.wait { $0 }
        #expect(await events.next() == StoredChange(key: "k", value: .int(2)))

        try FileStore(url: url, options: quietOptions).setValue(.int(3), forKey: "other")
        store.checkForExternalChange()
        #expect(await events.next() == StoredChange(key: "other", value: .int(3)))
    }
}

/// A write between a store's first read and the start of its watch is not lost.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreOpeningGapTests {
    @Test func writeWhileTheStoreOpensIsDeliveredAndRead() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try FileStore(url: url, options: quietOptions).setValue(.int(1), forKey: "k")
        var options = FileStore.Options()
        options.afterOpeningForTesting = .init {
            // Another program writes after the store read the file, before it watches it.
            try? FileStore(url: url, options: quietOptions).setValue(.int(2), forKey: "k")
        }
        let store = try FileStore(url: url, options: options)
        var events = store.changes().makeAsyncIterator()
        // The watch's first look, after the open returned, finds the write and publishes it.
        if store.value(forKey: "k") != .int(2) {
            #expect(await events.next() == StoredChange(key: "k", value: .int(2)))
        }
        #expect(store.value(forKey: "k") == .int(2))
    }
}

#if os(Linux) || os(Android)
/// A store whose folder can no longer be watched (the system's watch limit reached after the
/// folder was deleted and made again) checks its file by polling instead of going deaf.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreWatchLimitTests {
    @Test func folderThatCannotBeWatchedAgainIsPolled() async throws {
        let folder = try ScratchFolder()
        let sub = folder.url.appendingPathComponent("sub", isDirectory: true)
        let url = sub.appendingPathComponent("settings.json")
        try FileStore(url: url, options: quietOptions).setValue(.int(1), forKey: "k")
        let reader = try FileStore(url: url)
        let watchedFolder = (reader.url.path as NSString).deletingLastPathComponent
        FolderEvents.shared.refuseWatches(of: watchedFolder, true)
        defer { FolderEvents.shared.refuseWatches(of: watchedFolder, false) }
        var events = reader.changes().makeAsyncIterator()

        try FileManager.default.removeItem(at: sub)
        #expect(await events.next() == StoredChange(key: "k", value: nil))
        // The file's own deletion may be delivered before the folder's watch is dropped, so
        // whether polling has started yet is not asserted here; the next write must arrive.
        try FileStore(url: url, options: quietOptions).setValue(.int(2), forKey: "k")
        #expect(await events.next() == StoredChange(key: "k", value: .int(2)))
    }
}
#endif
