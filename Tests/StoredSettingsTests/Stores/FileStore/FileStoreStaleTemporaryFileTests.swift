import Foundation
import StoredSettings
import Testing

/// A temporary file left by a killed writer (unlocked, named as a write names its file) that
/// appears while a store is open: a write removes it, whether or not the store watches.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreStaleTemporaryFileTests {
    /// A name no writer of this process uses: process 0 is no user process.
    static let staleName = ".settings.json.tmp-0-stale"

    @Test func aStoreThatDoesNotWatchRemovesItOnEveryWrite() throws {
        let folder = try ScratchFolder()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        try store.setValue(.int(1), forKey: "k")
        for round in 0..<2 {
            try Data("{\"k\": ".utf8).write(to: folder.file(Self.staleName))
            try store.setValue(.int(Int64(round) + 2), forKey: "k")
            #expect(try folder.names() == ["settings.json", "settings.json.lock"], "round \(round)")
        }
    }

    /// The watcher reads events in order: once a change made after the file appeared has been
    /// delivered, the watcher has seen the file, and the next write removes it.
    @Test func aWatchingStoreRemovesItWithTheWriteAfterItsWatcherSawIt() async throws {
        let folder = try ScratchFolder()
        let (store, url) = try Self.watchingStore(in: folder)
        var events = store.changes().makeAsyncIterator()
        for round in 0..<2 {
            try Data("{\"k\": ".utf8).write(to: folder.file(Self.staleName))
            try await Self.waitUntilTheWatcherSawTheFolder(url, marker: round, events: &events)
            #expect(try folder.names().contains(Self.staleName), "round \(round)")
            try store.setValue(.int(Int64(round) + 3), forKey: "k")
            #expect(try folder.names() == ["settings.json", "settings.json.lock"], "round \(round)")
            _ = await events.next() // this write's own change
        }
    }

    /// A live writer's file (locked) is kept by the write that looks; when that writer dies
    /// later, no event says so, and a later write must still look and remove the file.
    @Test func aWatchingStoreRemovesTheFileOfAWriterThatDiedAfterItsLastLook() async throws {
        let folder = try ScratchFolder()
        let (store, url) = try Self.watchingStore(in: folder)
        var events = store.changes().makeAsyncIterator()
        try Data("{\"k\": ".utf8).write(to: folder.file(Self.staleName))
        // The live writer: an open description of the file holding its `flock`.
        let live = open(folder.file(Self.staleName).path, O_RDONLY | O_CLOEXEC)
        #expect(live >= 0)
        #expect(flock(live, LOCK_EX | LOCK_NB) == 0)
        try await Self.waitUntilTheWatcherSawTheFolder(url, marker: 0, events: &events)
        try store.setValue(.int(3), forKey: "k")
        _ = await events.next()
        #expect(try folder.names().contains(Self.staleName), "a live writer's file was removed")
        // The writer dies: its lock goes, and nothing else changes. Unlocked before the close,
        // since a child another test is spawning may hold a copy of the descriptor until it execs.
        #expect(flock(live, LOCK_UN) == 0)
        close(live)
        try store.setValue(.int(4), forKey: "k")
        #expect(try folder.names() == ["settings.json", "settings.json.lock"])
    }

    /// A store on a new file in `folder` that watches it, past its first write (which looks).
    static func watchingStore(in folder: ScratchFolder) throws -> (FileStore, URL) {
        let url = folder.file("settings.json")
        let store = try FileStore(url: url)
        try store.setValue(.int(1), forKey: "k")
        try store.setValue(.int(2), forKey: "k")
        return (store, url)
    }

    /// Saves the file in place as another program would (no write of a store, which would look
    /// itself), with `marker`, and waits for that change: the watcher reads events in order, so
    /// it has seen every file that appeared in the folder before.
    static func waitUntilTheWatcherSawTheFolder(
        _ url: URL, marker: Int, events: inout AsyncStream<StoredChange>.Iterator
    ) async throws {
        try Data("{\"k\": 2, \"marker\": \(marker)}".utf8).write(to: url)
        while let change = await events.next(), change != StoredChange(key: "marker", value: .int(Int64(marker))) {}
    }
}
