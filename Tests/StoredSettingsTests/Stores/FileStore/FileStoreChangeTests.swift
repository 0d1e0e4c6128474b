import Foundation
import StoredSettings
import Testing

/// Changes made by other stores and processes, and batches.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreChangeTests {
    /// How soon the change becomes visible is a figure of the benchmark ("change visible in
    /// another process"), not a bound here: this test waits for the event, however long it takes.
    @Test func secondStoreSeesAWriteAndGetsOneEvent() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let writer = try FileStore(url: url, options: quietOptions)
        try writer.setValue(.int(0), forKey: "other")
        let reader = try FileStore(url: url)
        let (_, revisionBefore) = reader.valueWithRevision(forKey: "count")
        var events = reader.changes().makeAsyncIterator()

        try writer.setValue(.int(1), forKey: "count")
        #expect(await events.next() == StoredChange(key: "count", value: .int(1)))
        #expect(reader.value(forKey: "count") == .int(1))
        #expect(reader.valueWithRevision(forKey: "count").revision != revisionBefore)

        // A later, known write: the next event is that one, so the first write was delivered once.
        try writer.setValue(.int(2), forKey: "sentinel")
        #expect(await events.next() == StoredChange(key: "sentinel", value: .int(2)))
    }

    @Test func writeKeepsKeysAnotherStoreWroteMeanwhile() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let first = try FileStore(url: url, options: quietOptions)
        let second = try FileStore(url: url, options: quietOptions)
        try first.setValue(.int(1), forKey: "a")
        try second.setValue(.int(2), forKey: "b")
        try first.update(forKey: "b") { value in
            #expect(value == .int(2), "update sees the other store's value")
            value = .int(3)
        }
        let reopened = try FileStore(url: url, options: quietOptions)
        #expect(reopened.value(forKey: "a") == .int(1))
        #expect(reopened.value(forKey: "b") == .int(3))
    }

    @Test func releasedStoreStopsWatching() async throws {
        let folder = try ScratchFolder()
        weak var released: FileStore?
        do {
            // A watcher whose next poll is an hour away, on a file nobody changes while it is
            // open (so no file event starts a check, which holds the store while it runs):
            // only a reference the watcher keeps could keep the store alive past this scope.
            try FileStore(url: folder.file("settings.json"), options: quietOptions).setValue(.int(1), forKey: "k")
            let store = try FileStore(
                url: folder.file("settings.json"), options: FileStore.Options(changeCheckInterval: .seconds(3_600)))
            released = store
            #expect(store.value(forKey: "k") == .int(1))
            // The watch is placed on the scheduler's thread, which holds the store while it
            // does: wait for a run queued after it, so the watch is in place and let go of.
            await withCheckedContinuation { done in ChangeCheckScheduler.shared.runOnce { done.resume() } }
        }
        #expect(released == nil)
    }

    @Test func batchWritesEverythingAtOnce() async throws {
        let folder = try ScratchFolder()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        var events = store.changes().makeAsyncIterator()
        let count = try store.batch { batch in
            for index in 0..<100 { batch["key\(index)"] = .int(Int64(index)) }
            batch["key0"] = nil
            return batch.keys.count
        }
        #expect(count == 99)
        #expect(try FileStore(url: store.url, options: quietOptions).keys().count == 99)
        // One event per key the batch left changed (key0 was set and removed again: none).
        var changed: [StoredChange] = []
        for _ in 1...99 { if let change = await events.next() { changed.append(change) } }
        let expected = (1..<100).map { StoredChange(key: "key\($0)", value: .int(Int64($0))) }
        #expect(Set(changed.map(\.key)) == Set(expected.map(\.key)))
        #expect(changed.allSatisfy { expected.contains($0) })
        try store.setValue(.int(-1), forKey: "sentinel")
        #expect(await events.next() == StoredChange(key: "sentinel", value: .int(-1)))
    }

    @Test func failingBatchWritesNothing() throws {
        struct Stop: Error {}
        let folder = try ScratchFolder()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        try store.setValue(.int(1), forKey: "a")
        let before = try Data(contentsOf: store.url)
        #expect(throws: Stop.self) {
            try store.batch { batch in
                batch["a"] = .int(2)
                batch["b"] = .int(2)
                throw Stop()
            }
        }
        let error = try #require(throws: StorageError.self) {
            try store.batch { batch in
                batch["a"] = .int(3)
                batch[""] = .int(3)
            }
        }
        #expect(error.code == .invalidKey)
        #expect(try Data(contentsOf: store.url) == before)
        #expect(store.value(forKey: "a") == .int(1))
        #expect(store.value(forKey: "b") == nil)
    }

    @Test func batchThatChangesNothingDoesNotWrite() throws {
        let folder = try ScratchFolder()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        try store.setValue(.int(1), forKey: "a")
        var before = stat()
        #expect(stat(store.url.path, &before) == 0)
        let bytes = try Data(contentsOf: store.url)
        try store.batch { batch in batch["a"] = .int(1) }
        var after = stat()
        #expect(stat(store.url.path, &after) == 0)
        // Neither replaced (a new inode) nor rewritten in place (a new modification time).
        #expect(before.st_ino == after.st_ino)
        #expect(before.st_mtim.tv_sec == after.st_mtim.tv_sec && before.st_mtim.tv_nsec == after.st_mtim.tv_nsec)
        #expect(try Data(contentsOf: store.url) == bytes)
    }
}
