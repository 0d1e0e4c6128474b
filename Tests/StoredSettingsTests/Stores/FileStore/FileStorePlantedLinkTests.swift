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

/// Root writing below a folder another user owns (`sudo tool …` on that user's settings):
/// a symbolic link that user made, as the settings file or as a folder on the way, would let
/// them point root's write at any file. Such a link is refused; links of root's are followed.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStorePlantedLinkTests {
    static let user: uid_t = 65534
    let scratch: ScratchFolder
    /// `home/.config/tool`, owned by ``user`` down from `home`, mode 0755.
    let tool: URL
    /// A folder only root may enter, holding `target.json`.
    let protected: URL
    let target: URL
    static let targetBytes = Data("{\"root\": 1}\n".utf8)

    init() throws {
        scratch = try ScratchFolder()
        #expect(chmod(scratch.path, 0o755) == 0)
        let home = scratch.file("home")
        tool = home.appendingPathComponent(".config/tool")
        try FileManager.default.createDirectory(at: tool, withIntermediateDirectories: true)
        for folder in [home, home.appendingPathComponent(".config"), tool] {
            #expect(chmod(folder.path, 0o755) == 0 && chown(folder.path, Self.user, gid_t(Self.user)) == 0)
        }
        protected = scratch.file("protected")
        #expect(mkdir(protected.path, 0o700) == 0)
        target = protected.appendingPathComponent("target.json")
        try Self.targetBytes.write(to: target)
    }

    /// A symbolic link at `link` to `destination`, owned by `owner`.
    func plant(_ link: URL, to destination: URL, owner: uid_t = Self.user) {
        #expect(symlink(destination.path, link.path) == 0)
        #expect(lchown(link.path, owner, gid_t(owner)) == 0)
    }

    /// Only the target file was there before: nothing was created or changed in its folder.
    func expectProtectedFolderUntouched(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: protected.path)
        #expect(names == ["target.json"], sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: target) == Self.targetBytes, sourceLocation: sourceLocation)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root: the rule is for root writing another user's files"))
    func rootRefusesASettingsFileTheFolderOwnerLinkedElsewhere() throws {
        let link = tool.appendingPathComponent("settings.json")
        plant(link, to: target)
        let store = try FileStore(url: link, options: quietOptions)
        let error = try #require(throws: StorageError.self) { try store.setValue(.int(2), forKey: "root") }
        #expect(error.code == .insecurePermissions, "\(error)")
        #expect(error.description.contains("symbolic link \(link.path)"), "\(error)")
        #expect(error.description.contains("belongs to user 65534"), "\(error)")
        try expectProtectedFolderUntouched()
    }

    @Test(.enabled(if: geteuid() == 0, "needs root: the rule is for root writing another user's files"))
    func rootRefusesALinkToAFileThatDoesNotExistYet() throws {
        let link = tool.appendingPathComponent("settings.json")
        plant(link, to: protected.appendingPathComponent("nologin"))
        let error = try #require(throws: StorageError.self) {
            try FileStore(url: link, options: quietOptions).setValue(.int(2), forKey: "k")
        }
        #expect(error.code == .insecurePermissions, "\(error)")
        try expectProtectedFolderUntouched()
    }

    @Test(.enabled(if: geteuid() == 0, "needs root: the rule is for root writing another user's files"))
    func rootRefusesAFolderItsParentsOwnerLinkedToARootOnlyFolder() throws {
        let config = tool.deletingLastPathComponent()
        let linked = config.appendingPathComponent("linked")
        plant(linked, to: protected)
        let error = try #require(throws: StorageError.self) {
            try FileStore(url: linked.appendingPathComponent("target.json"), options: quietOptions)
                .setValue(.int(2), forKey: "root")
        }
        #expect(error.code == .insecurePermissions, "\(error)")
        #expect(error.description.contains("symbolic link \(linked.path)"), "\(error)")
        try expectProtectedFolderUntouched()
    }

    @Test(.enabled(if: geteuid() == 0, "needs root: the rule is for root writing another user's files"))
    func rootNeverCreatesALockThroughALinkTheFolderOwnerPlanted() throws {
        let settings = tool.appendingPathComponent("settings.json")
        try Data("{}\n".utf8).write(to: settings)
        #expect(chown(settings.path, Self.user, gid_t(Self.user)) == 0)
        plant(tool.appendingPathComponent("settings.json.lock"), to: protected.appendingPathComponent("lock"))
        #expect(throws: StorageError.self) {
            try FileStore(url: settings, options: quietOptions).setValue(.int(2), forKey: "k")
        }
        try expectProtectedFolderUntouched()
    }

    @Test(.enabled(if: geteuid() == 0, "needs root: the rule is for root writing another user's files"))
    func rootDoesNotMoveAsideAFileThroughALinkTheFolderOwnerPlanted() throws {
        try Data("not json\n".utf8).write(to: target)
        let link = tool.appendingPathComponent("settings.json")
        plant(link, to: target)
        var options = quietOptions
        options.corruptFilePolicy = .moveAside
        let error = try #require(throws: StorageError.self) { try FileStore(url: link, options: options) }
        #expect(error.code == .insecurePermissions, "\(error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: protected.path) == ["target.json"])
    }

    @Test(.enabled(if: geteuid() == 0, "needs root: the rule is for root writing another user's files"))
    func rootFollowsItsOwnLinkInAnotherUsersFolder() throws {
        let link = tool.appendingPathComponent("settings.json")
        plant(link, to: target, owner: 0)
        try FileStore(url: link, options: quietOptions).setValue(.int(2), forKey: "root")
        #expect(try FileStore(url: target, options: quietOptions).value(forKey: "root") == .int(2))
    }

    /// A link whose target is not UTF-8 is followed by its bytes: read as text, `\u{FFFD}`
    /// would name a path that does not exist, and the walk would stop before the user's link.
    @Test(.enabled(if: geteuid() == 0, "needs root: the rule is for root writing another user's files"))
    func rootRefusesAnotherUsersLinkReachedThroughATargetThatIsNotUTF8() throws {
        let name = Array("linked".utf8) + [0xFF]
        let planted = Array(tool.path.utf8) + [UInt8(ascii: "/")] + name
        #expect(Self.makeLink(Array(protected.path.utf8), at: planted) == 0)
        #expect(Self.cString(planted) { lchown($0, Self.user, gid_t(Self.user)) } == 0)
        // Root's own link, followed wherever it is, to `linked\xFF/target.json`.
        let link = tool.appendingPathComponent("settings.json")
        #expect(Self.makeLink(name + Array("/target.json".utf8), at: Array(link.path.utf8)) == 0)
        let error = try #require(throws: StorageError.self) {
            try FileStore(url: link, options: quietOptions).setValue(.int(2), forKey: "root")
        }
        #expect(error.code == .insecurePermissions, "\(error)")
        #expect(error.description.contains("belongs to user 65534"), "\(error)")
        try expectProtectedFolderUntouched()
    }

    /// `symlink(target, link)` with both paths as bytes.
    static func makeLink(_ target: [UInt8], at link: [UInt8]) -> Int32 {
        cString(target) { target in cString(link) { symlink(target, $0) } }
    }

    /// `body` given `bytes` as a NUL-terminated C string.
    static func cString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (bytes.map { CChar(bitPattern: $0) } + [0]).withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// A name the walk cannot look at (a loop of links, a name longer than the system allows)
    /// is an error that says so, not a path taken for safe.
    @Test func theLinkWalkReportsAPathItCannotLookAt() throws {
        let loop = scratch.file("loop")
        #expect(symlink(loop.path, loop.path) == 0)
        let tooLong = scratch.file(String(repeating: "n", count: 300))
        for path in [loop.appendingPathComponent("settings.json").path, tooLong.appendingPathComponent("s.json").path] {
            let error = try #require(throws: StorageError.self, "\(path)") {
                try FileSystem.checkNoLinkOfAnotherUser(on: path)
            }
            #expect(error.code == .io, "\(error)")
        }
        // A missing folder or a file where a folder should be: the write creates or reports it.
        try FileSystem.checkNoLinkOfAnotherUser(on: scratch.file("missing/settings.json").path)
        try Data().write(to: scratch.file("file"))
        try FileSystem.checkNoLinkOfAnotherUser(on: scratch.file("file/settings.json").path)
    }

    /// The user themself writes through their own link.
    @Test(.enabled(if: geteuid() == 0, "needs root to run a child as another user"))
    func theFolderOwnerWritesThroughTheirOwnLink() async throws {
        let elsewhere = tool.appendingPathComponent("real.json")
        let link = tool.appendingPathComponent("settings.json")
        plant(link, to: elsewhere)
        let written = facts(try await ChildProcess.run(["set", link.path, "k", "v", "--drop-privileges"]))
        #expect(written["ok"] != nil, "\(written)")
        #expect(try FileStore(url: elsewhere, options: quietOptions).value(forKey: "k") == .string("v"))
    }

    #if os(Linux)
    /// A write that waits for the folder owner's lock checks the path again once it holds the
    /// lock: the owner cannot swap the folder for a link while root waits.
    @Test(.enabled(if: geteuid() == 0, "needs root: the rule is for root writing another user's files"))
    func rootRefusesAFolderSwappedForALinkWhileItsWriteWaitedForTheLock() async throws {
        let settings = tool.appendingPathComponent("settings.json")
        let store = try FileStore(url: settings, options: quietOptions)
        try store.setValue(.int(1), forKey: "root")
        // The owner holds the lock (an `flock` of another open file description, as another
        // process's would be), so root's next write waits for it.
        let held = open(settings.path + ".lock", O_RDONLY | O_CLOEXEC)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        let waiting = ThreadTest.resultOnNewThread { try store.setValue(.int(2), forKey: "root") }
        await waitUntilBlockedOnLock(of: settings.path + ".lock")
        #expect(rename(tool.path, tool.path + "-moved") == 0)
        plant(tool, to: protected)
        close(held)
        let error = try #require(throws: StorageError.self) { try waiting() }
        #expect(error.code == .insecurePermissions, "\(error)")
        try expectProtectedFolderUntouched()
    }
    #endif
}
