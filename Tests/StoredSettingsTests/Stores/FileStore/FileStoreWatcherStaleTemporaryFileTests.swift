import Foundation
import StoredSettings
import Testing

/// A killed writer's temporary file that appears while a watching store is open, after the
/// folder, the link's target or the number of stores changed under the watcher: the write after
/// the watcher saw it removes it, as every write did before writes trusted the watcher.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreWatcherStaleTemporaryFileTests {
    /// The file's own folder moved away and another put in its place, already holding a
    /// killed writer's file: the watch of the moved folder ends, and the folder is watched
    /// again, so what it held is unknown and the next write looks.
    @Test func aStaleFileInAFolderThatReplacedTheFilesFolderIsRemovedByTheNextWrite() async throws {
        let folder = try ScratchFolder()
        let leaf = folder.file("app")
        try FileManager.default.createDirectory(at: leaf, withIntermediateDirectories: true)
        let url = leaf.appendingPathComponent("settings.json")
        let store = try FileStore(url: url)
        try store.setValue(.int(1), forKey: "k")
        try store.setValue(.int(2), forKey: "k")
        var events = store.changes().makeAsyncIterator()
        let replacement = folder.file("app.new")
        try FileManager.default.createDirectory(at: replacement, withIntermediateDirectories: true)
        try Data("{\"k\": ".utf8).write(to: replacement.appendingPathComponent(".settings.json.tmp-0-stale"))
        try Data("{\"k\": 2, \"marker\": 0}".utf8).write(to: replacement.appendingPathComponent("settings.json"))
        try FileManager.default.moveItem(at: leaf, to: folder.file("app.old"))
        try FileManager.default.moveItem(at: replacement, to: leaf)
        while let change = await events.next(), change != StoredChange(key: "marker", value: .int(0)) {}
        try store.setValue(.int(3), forKey: "k")
        let names = try FileManager.default.contentsOfDirectory(atPath: leaf.path).sorted()
        #expect(names == ["settings.json", "settings.json.lock"])
    }

    /// Two watching stores of one file in one process: a stale file one of them removed is
    /// gone for the other, and one that appears later is removed by whichever writes next.
    @Test func twoWatchingStoresOfOneFileEachRemoveAStaleFileThatAppearsLater() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let first = try FileStore(url: url)
        let second = try FileStore(url: url)
        try first.setValue(.int(1), forKey: "k")
        try second.setValue(.int(2), forKey: "k")
        try first.setValue(.int(3), forKey: "k")
        try second.setValue(.int(4), forKey: "k")
        var firstEvents = first.changes().makeAsyncIterator()
        var secondEvents = second.changes().makeAsyncIterator()
        for (round, writer) in [first, second, second, first].enumerated() {
            try Data("{\"k\": ".utf8).write(to: folder.file(".settings.json.tmp-0-stale"))
            try Data("{\"k\": 4, \"marker\": \(round)}".utf8).write(to: url)
            let marker = StoredChange(key: "marker", value: .int(Int64(round)))
            while let change = await firstEvents.next(), change != marker {}
            while let change = await secondEvents.next(), change != marker {}
            try writer.setValue(.int(Int64(round) + 5), forKey: "k")
            #expect(try folder.names() == ["settings.json", "settings.json.lock"], "round \(round)")
        }
    }

    /// The store's path is a symbolic link whose target changes to another file of the folder
    /// and back: a killed writer's file of whichever file is the target is removed by the write
    /// after the watcher saw it.
    @Test func aStaleFileOfTheCurrentTargetOfALinkIsRemovedByTheNextWrite() async throws {
        let folder = try ScratchFolder()
        let link = folder.file("settings.json")
        try Data("{\"k\": 0}".utf8).write(to: folder.file("one.json"))
        try Data("{\"k\": 0}".utf8).write(to: folder.file("two.json"))
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "one.json")
        let store = try FileStore(url: link)
        try store.setValue(.int(1), forKey: "k")
        try store.setValue(.int(2), forKey: "k")
        var events = store.changes().makeAsyncIterator()
        for (round, target) in ["two.json", "one.json", "two.json"].enumerated() {
            try FileManager.default.removeItem(at: link)
            try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: target)
            try Data("{\"k\": ".utf8).write(to: folder.file(".\(target).tmp-0-stale"))
            try Data("{\"k\": 2, \"marker\": \(round)}".utf8).write(to: folder.file(target))
            while let change = await events.next(), change != StoredChange(key: "marker", value: .int(Int64(round))) {}
            try store.setValue(.int(Int64(round) + 3), forKey: "k")
            let names = try folder.names().filter { $0.hasPrefix(".") }
            #expect(names.isEmpty, "round \(round)")
        }
    }
}
