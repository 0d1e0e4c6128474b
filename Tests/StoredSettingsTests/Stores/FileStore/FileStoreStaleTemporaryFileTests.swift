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
        let url = folder.file("settings.json")
        let store = try FileStore(url: url)
        try store.setValue(.int(1), forKey: "k")
        try store.setValue(.int(2), forKey: "k")
        var events = store.changes().makeAsyncIterator()
        for round in 0..<2 {
            try Data("{\"k\": ".utf8).write(to: folder.file(Self.staleName))
            // Saved in place by another program: no write of a store, which would look itself.
            try Data("{\"k\": 2, \"marker\": \(round)}".utf8).write(to: url)
            while let change = await events.next(), change != StoredChange(key: "marker", value: .int(Int64(round))) {}
            #expect(try folder.names().contains(Self.staleName), "round \(round)")
            try store.setValue(.int(Int64(round) + 3), forKey: "k")
            #expect(try folder.names() == ["settings.json", "settings.json.lock"], "round \(round)")
            _ = await events.next() // this write's own change
        }
    }
}
