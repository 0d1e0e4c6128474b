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

/// A killed writer's temporary file that appears, while a watching store is open, where its
/// watcher would not tell it from this process's own or would not see it: a write still
/// removes it, since every write looks, whatever the watcher saw.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreUnseenStaleTemporaryFileTests {
    /// A writer in another PID namespace (another container sharing the folder, where each
    /// program is often process 1), or on another host sharing it, names its files with the
    /// same process ID as this process: a killed one's file is still another process's.
    @Test func aStaleFileNamedWithThisProcessIDIsRemovedByTheWriteAfterTheWatcherSawIt() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let store = try FileStore(url: url)
        try store.setValue(.int(1), forKey: "k")
        try store.setValue(.int(2), forKey: "k")
        var events = store.changes().makeAsyncIterator()
        let staleName = ".settings.json.tmp-\(getpid())-stale"
        try Data("{\"k\": ".utf8).write(to: folder.file(staleName))
        // Saved in place by another program; once its change arrives, the watcher has read the
        // event of the stale file too (events are read in order).
        try Data("{\"k\": 2, \"marker\": 0}".utf8).write(to: url)
        while let change = await events.next(), change != StoredChange(key: "marker", value: .int(0)) {}
        for round in 0..<3 {
            try store.setValue(.int(Int64(round) + 3), forKey: "k")
        }
        #expect(try folder.names() == ["settings.json", "settings.json.lock"])
    }

    /// An ancestor of the file's folder is moved away and a new tree made in its place (a
    /// configuration folder restored from a backup): the watch stays on the old folder, which
    /// sends no event, while writes go to the new one.
    @Test func aStaleFileInAFolderThatReplacedAnAncestorIsRemovedByALaterWrite() throws {
        let folder = try ScratchFolder()
        let parent = folder.file("config")
        let leaf = parent.appendingPathComponent("app")
        try FileManager.default.createDirectory(at: leaf, withIntermediateDirectories: true)
        let url = leaf.appendingPathComponent("settings.json")
        let store = try FileStore(url: url)
        try store.setValue(.int(1), forKey: "k")
        try store.setValue(.int(2), forKey: "k")
        try FileManager.default.moveItem(at: parent, to: folder.file("config.old"))
        try FileManager.default.createDirectory(at: leaf, withIntermediateDirectories: true)
        try Data("{\"k\": 2}".utf8).write(to: url)
        let staleName = ".settings.json.tmp-0-stale"
        try Data("{\"k\": ".utf8).write(to: leaf.appendingPathComponent(staleName))
        for round in 0..<3 {
            try store.setValue(.int(Int64(round) + 3), forKey: "k")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: leaf.path).sorted()
        #expect(names == ["settings.json", "settings.json.lock"])
    }
}
