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

/// A watching store keeps hearing another writer after the path it was given comes to name
/// another file or folder: a link made or retargeted, an ancestor folder replaced, a mount.
/// Every wait is for a change delivered.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreWatchResolutionTests {
    /// Puts a symbolic link to `target` at `link`, replacing what is there in one `rename`.
    private func link(_ link: URL, to target: URL) {
        self.link(link, reading: target.path)
    }

    /// Puts a symbolic link whose text is `text` (relative to the link's folder, or absolute)
    /// at `link`, replacing what is there in one `rename`.
    private func link(_ link: URL, reading text: String) {
        let temporary = link.deletingLastPathComponent().appendingPathComponent(".link-\(UUID().uuidString)")
        #expect(symlink(text, temporary.path) == 0)
        #expect(rename(temporary.path, link.path) == 0)
    }

    /// A folder holding `settings.json` with `k` set to `value`.
    private func folder(_ url: URL, holding value: Int) throws -> URL {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try FileStore(url: url.appendingPathComponent("settings.json"), options: quietOptions)
            .setValue(.int(Int64(value)), forKey: "k")
        return url.appendingPathComponent("settings.json")
    }

    /// After renames that put a copy holding `k` = 2 where `url` leads: that value arrives (the
    /// renames may be seen as one change, or as a removal and then the value), and a write of 3
    /// at the new place is heard too.
    private func expectReplacementFollowed(
        at url: URL, _ events: inout AsyncStream<StoredChange>.Iterator
    ) async throws {
        var change = await events.next()
        if change == StoredChange(key: "k", value: nil) { change = await events.next() }
        #expect(change == StoredChange(key: "k", value: .int(2)))
        try FileStore(url: url, options: quietOptions).setValue(.int(3), forKey: "k")
        #expect(await events.next() == StoredChange(key: "k", value: .int(3)))
    }

    /// Restoring `~/.config` from a backup: the folder above the file's is renamed away and
    /// another put in its place; on every platform the old folder's watch hears nothing of either.
    @Test func ancestorFolderReplacedByABackupIsWatchedAgain() async throws {
        let scratch = try ScratchFolder()
        let url = try folder(scratch.file("config/app"), holding: 1)
        _ = try folder(scratch.file("backup/app"), holding: 2)
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()

        #expect(rename(scratch.file("config").path, scratch.file("config-old").path) == 0)
        #expect(rename(scratch.file("backup").path, scratch.file("config").path) == 0)
        try await expectReplacementFollowed(at: url, &events)
    }

    @Test func ancestorFolderRenamedAwayAndMadeAgainIsWatchedAgain() async throws {
        let scratch = try ScratchFolder()
        let url = try folder(scratch.file("config/app"), holding: 1)
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()

        #expect(rename(scratch.file("config").path, scratch.file("config-old").path) == 0)
        #expect(await events.next() == StoredChange(key: "k", value: nil))
        try FileManager.default.createDirectory(at: scratch.file("config/app"), withIntermediateDirectories: true)
        try FileStore(url: url, options: quietOptions).setValue(.int(2), forKey: "k")
        #expect(await events.next() == StoredChange(key: "k", value: .int(2)))
        // A write into the renamed folder is another file's now.
        try FileStore(url: scratch.file("config-old/app/settings.json"), options: quietOptions)
            .setValue(.int(9), forKey: "old")
        try FileStore(url: url, options: quietOptions).setValue(.int(3), forKey: "k")
        #expect(await events.next() == StoredChange(key: "k", value: .int(3)))
    }

    #if os(Linux) || os(Android)
    @Test func fileReplacedByALinkIntoAnotherFolderIsWatchedThere() async throws {
        let scratch = try ScratchFolder()
        let url = try folder(scratch.file("home"), holding: 1)
        let elsewhere = try folder(scratch.file("data"), holding: 2)
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()

        link(url, to: elsewhere)
        #expect(await events.next() == StoredChange(key: "k", value: .int(2)))
        // The writer replaces the file in the link's folder, which the store did not watch.
        try FileStore(url: elsewhere, options: quietOptions).setValue(.int(3), forKey: "k")
        #expect(await events.next() == StoredChange(key: "k", value: .int(3)))
    }

    @Test func retargetedLinkIsWatchedAtItsNewTarget() async throws {
        let scratch = try ScratchFolder()
        let first = try folder(scratch.file("first"), holding: 1)
        let second = try folder(scratch.file("second"), holding: 2)
        try FileManager.default.createDirectory(at: scratch.file("home"), withIntermediateDirectories: true)
        let url = scratch.file("home/settings.json")
        link(url, to: first)
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()

        link(url, to: second)
        #expect(await events.next() == StoredChange(key: "k", value: .int(2)))
        try FileStore(url: url, options: quietOptions).setValue(.int(3), forKey: "k")
        #expect(await events.next() == StoredChange(key: "k", value: .int(3)))
    }

    /// The link is retargeted after the store's walk read it but before the watches were
    /// placed, so the watch on the link's folder came too late to hear it: the store walks
    /// again once watching, and follows the new target.
    @Test func linkRetargetedWhileTheWatchIsPlacedIsWatchedAtItsNewTarget() async throws {
        let scratch = try ScratchFolder()
        let first = try folder(scratch.file("first"), holding: 1)
        let second = try folder(scratch.file("second"), holding: 2)
        try FileManager.default.createDirectory(at: scratch.file("home"), withIntermediateDirectories: true)
        let url = scratch.file("home/settings.json")
        link(url, to: first)
        let temporary = scratch.file("home/.retargeted").path
        #expect(symlink(second.path, temporary) == 0)
        FolderEvents.shared.afterNextWalk(of: FileStore.absolutePath(of: url)) {
            _ = rename(temporary, url.path)
        }
        // The watch is placed on the scheduler's thread; held there until the test subscribed,
        // so the change the store finds once watching is not published before anyone listens.
        let subscribed = DispatchSemaphore(value: 0)
        ChangeCheckScheduler.shared.runOnce { subscribed.wait() }
        defer { subscribed.signal() } // Never leaves the shared thread held, whatever throws.
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()
        subscribed.signal()

        // The look the store takes once watching finds the new target's value.
        #expect(await events.next() == StoredChange(key: "k", value: .int(2)))
        #expect(FileManager.default.fileExists(atPath: temporary) == false)
        try FileStore(url: url, options: quietOptions).setValue(.int(3), forKey: "k")
        #expect(await events.next() == StoredChange(key: "k", value: .int(3)))
    }

    @Test func retargetedLinkedFolderIsWatchedAtItsNewTarget() async throws {
        let scratch = try ScratchFolder()
        _ = try folder(scratch.file("first"), holding: 1)
        _ = try folder(scratch.file("second"), holding: 2)
        try FileManager.default.createDirectory(at: scratch.file("home"), withIntermediateDirectories: true)
        link(scratch.file("home/current"), to: scratch.file("first"))
        let url = scratch.file("home/current/settings.json")
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()

        link(scratch.file("home/current"), to: scratch.file("second"))
        #expect(await events.next() == StoredChange(key: "k", value: .int(2)))
        try FileStore(url: url, options: quietOptions).setValue(.int(3), forKey: "k")
        #expect(await events.next() == StoredChange(key: "k", value: .int(3)))
    }

    /// A folder behind a linked folder in the middle of the path is replaced by a prepared copy:
    /// the change is in a folder that only the link's target leads through.
    @Test func folderBehindALinkedFolderReplacedByACopyIsWatchedAgain() async throws {
        let scratch = try ScratchFolder()
        _ = try folder(scratch.file("b/x/real"), holding: 1)
        _ = try folder(scratch.file("b/xnew/real"), holding: 2)
        try FileManager.default.createDirectory(at: scratch.file("a"), withIntermediateDirectories: true)
        link(scratch.file("a/linkdir"), to: scratch.file("b/x/real"))
        let url = scratch.file("a/linkdir/settings.json")
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()

        #expect(rename(scratch.file("b/x").path, scratch.file("b/old").path) == 0)
        #expect(rename(scratch.file("b/xnew").path, scratch.file("b/x").path) == 0)
        try await expectReplacementFollowed(at: url, &events)
    }

    /// The file is a link to a link: retargeting the second, in a folder neither the path nor
    /// the final target lies in, changes what the path names.
    @Test func retargetedSecondLinkOfAChainIsWatchedAtItsNewTarget() async throws {
        let scratch = try ScratchFolder()
        _ = try folder(scratch.file("t1"), holding: 1)
        _ = try folder(scratch.file("t2"), holding: 2)
        for name in ["home", "mid"] {
            try FileManager.default.createDirectory(at: scratch.file(name), withIntermediateDirectories: true)
        }
        link(scratch.file("mid/link2"), reading: "../t1/settings.json")
        link(scratch.file("home/settings.json"), to: scratch.file("mid/link2"))
        let url = scratch.file("home/settings.json")
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()

        link(scratch.file("mid/link2"), reading: "../t2/settings.json")
        #expect(await events.next() == StoredChange(key: "k", value: .int(2)))
        try FileStore(url: url, options: quietOptions).setValue(.int(3), forKey: "k")
        #expect(await events.next() == StoredChange(key: "k", value: .int(3)))
    }

    /// A folder on the way that cannot be watched (no permission to read it, the watch limit
    /// reached) cannot tell of its entries' changes: the store checks its file instead.
    @Test func ancestorFolderThatCannotBeWatchedIsCoveredByChecks() async throws {
        let scratch = try ScratchFolder()
        let url = try folder(scratch.file("config/app"), holding: 1)
        _ = try folder(scratch.file("backup/app"), holding: 2)
        let configFolder = (try FileStore(url: url, options: quietOptions).url.path as NSString)
            .deletingLastPathComponent
        let aboveConfig = ((configFolder as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        FolderEvents.shared.refuseWatches(of: aboveConfig, true)
        defer { FolderEvents.shared.refuseWatches(of: aboveConfig, false) }
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()

        #expect(rename(scratch.file("config").path, scratch.file("config-old").path) == 0)
        #expect(rename(scratch.file("backup").path, scratch.file("config").path) == 0)
        var change = await events.next()
        if change == StoredChange(key: "k", value: nil) { change = await events.next() }
        #expect(change == StoredChange(key: "k", value: .int(2)))
    }

    /// Whether this process may bind-mount (root, in a mount namespace that allows it).
    private static let canBindMount: Bool = {
        guard geteuid() == 0, let scratch = try? ScratchFolder() else { return false }
        let source = scratch.file("source").path
        let target = scratch.file("target").path
        guard mkdir(source, 0o700) == 0, mkdir(target, 0o700) == 0 else { return false }
        guard mount(source, target, nil, UInt(MS_BIND), nil) == 0 else { return false }
        return umount(target) == 0
    }()

    @Test(.enabled(if: canBindMount, "needs a bind mount: root, where mounting is allowed"))
    func folderCoveredByABindMountIsWatchedThroughTheMount() async throws {
        let scratch = try ScratchFolder()
        let url = try folder(scratch.file("config"), holding: 1)
        _ = try folder(scratch.file("other"), holding: 2)
        let reader = try FileStore(url: url)
        var events = reader.changes().makeAsyncIterator()

        try #require(mount(scratch.file("other").path, scratch.file("config").path, nil, UInt(MS_BIND), nil) == 0)
        defer { _ = umount(scratch.file("config").path) }
        #expect(await events.next() == StoredChange(key: "k", value: .int(2)))
        try FileStore(url: url, options: quietOptions).setValue(.int(3), forKey: "k")
        #expect(await events.next() == StoredChange(key: "k", value: .int(3)))
    }
    #endif
}
