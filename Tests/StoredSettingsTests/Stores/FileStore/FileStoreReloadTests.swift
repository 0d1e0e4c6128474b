import Foundation
import StoredSettings
import Testing

/// `reload()` on a store that does not watch its file: the way a long-running tool re-reads
/// its settings on `SIGHUP`.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreReloadTests {
    @Test func reloadDeliversAnExternalWriteMadeWhileWatchingIsOff() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try FileStore(url: url, options: quietOptions).setValue(.int(10), forKey: "pageSize")
        let store = try FileStore(url: url, options: quietOptions)
        var changes = store.changes().makeAsyncIterator()

        // Another process's write: the store does not watch, so it does not see it yet.
        try FileStore(url: url, options: quietOptions).setValue(.int(5), forKey: "pageSize")
        #expect(store.value(forKey: "pageSize") == .int(10))

        try store.reload()
        #expect(store.value(forKey: "pageSize") == .int(5))
        #expect(await changes.next() == StoredChange(key: "pageSize", value: .int(5)))
    }

    @Test func reloadOfAnUnchangedFileDeliversNothing() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(.int(10), forKey: "pageSize")
        var changes = store.changes().makeAsyncIterator()

        try store.reload()
        // Rewritten with the same contents (a new inode and time): still nothing changed.
        try Data(contentsOf: url).write(to: url, options: .atomic)
        try store.reload()

        // The next change delivered is this marker: the reloads delivered none before it.
        try store.setValue(.bool(true), forKey: "marker")
        #expect(await changes.next() == StoredChange(key: "marker", value: .bool(true)))
        #expect(store.value(forKey: "pageSize") == .int(10))
    }

    @Test func reloadOfAnUnparsableFileThrowsAndKeepsTheValues() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(.int(10), forKey: "pageSize")
        var changes = store.changes().makeAsyncIterator()
        let broken = Data("{\"pageSize\": 5,".utf8)
        try broken.write(to: url)

        let error = #expect(throws: StorageError.self) { try store.reload() }
        #expect(error?.code == .dataCorrupted)
        #expect(error?.location == url.path)
        #expect(store.value(forKey: "pageSize") == .int(10))
        #expect(try Data(contentsOf: url) == broken, "the unreadable file was changed")

        // Once the file parses again, a reload picks it up; the failed one delivered nothing.
        try Data("{\"pageSize\": 7}".utf8).write(to: url)
        try store.reload()
        #expect(await changes.next() == StoredChange(key: "pageSize", value: .int(7)))
    }

    @Test func reloadOfADeletedFileEmptiesTheStore() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(.int(10), forKey: "pageSize")
        var changes = store.changes().makeAsyncIterator()
        try FileManager.default.removeItem(at: url)

        try store.reload()
        #expect(store.keys().isEmpty)
        #expect(await changes.next() == StoredChange(key: "pageSize", value: nil))
    }

    @Test func reloadFromInsideAnUpdateBodyThrowsInsteadOfWaiting() throws {
        let folder = try ScratchFolder()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        let error = try store.update(forKey: "pageSize") { _ in
            #expect(throws: StorageError.self) { try store.reload() }
        }
        #expect(error?.code == .reentrantWrite)
    }
}
