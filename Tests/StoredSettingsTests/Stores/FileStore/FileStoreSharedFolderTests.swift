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

/// In a folder others may write that is not sticky, anyone can replace the settings file with
/// a link to any path: root's writes there, and writes to another user's file, are refused
/// before any link is followed.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreSharedFolderTests {
    let scratch: ScratchFolder
    /// World-writable, not sticky.
    let shared: URL
    /// Only root may write here.
    let protected: URL

    init() throws {
        scratch = try ScratchFolder()
        #expect(chmod(scratch.path, 0o755) == 0)
        shared = scratch.file("shared")
        protected = scratch.file("protected")
        #expect(mkdir(shared.path, 0o755) == 0 && chmod(shared.path, 0o777) == 0)
        #expect(mkdir(protected.path, 0o755) == 0)
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to plant a link owned by another user"))
    func rootNeverFollowsALinkAnotherUserPlantedInASharedFolder() throws {
        let url = shared.appendingPathComponent("settings.json")
        let target = protected.appendingPathComponent("planted.json")
        #expect(symlink(target.path, url.path) == 0)
        #expect(lchown(url.path, 65534, 65534) == 0)
        let store = try FileStore(url: url, options: quietOptions)
        let error = try #require(throws: StorageError.self) { try store.setValue(.int(1), forKey: "k") }
        #expect(error.code == .insecurePermissions)
        #expect(error.description.contains(shared.path) && error.description.contains("0777"), "\(error)")
        #expect(access(target.path, F_OK) != 0, "the write created the link's target")
        #expect(store.value(forKey: "k") == nil)
    }

    @Test(.enabled(if: geteuid() == 0, "runs as root"))
    func rootDoesNotWriteBelowAFolderOthersMayWrite() throws {
        #expect(mkdir(shared.appendingPathComponent("app").path, 0o700) == 0)
        let url = shared.appendingPathComponent("app/settings.json")
        try Data("{\"k\": 0}\n".utf8).write(to: url)
        let store = try FileStore(url: url, options: quietOptions)
        let error = try #require(throws: StorageError.self) { try store.setValue(.int(1), forKey: "k") }
        #expect(error.code == .insecurePermissions)
        #expect(try Data(contentsOf: url) == Data("{\"k\": 0}\n".utf8))
    }

    /// A link to a folder that others may write leads there: the folders of the real path are
    /// checked too.
    @Test(.enabled(if: geteuid() == 0, "runs as root"))
    func rootDoesNotWriteThroughALinkedFolderIntoASharedOne() throws {
        #expect(symlink(shared.path, protected.appendingPathComponent("link").path) == 0)
        let url = protected.appendingPathComponent("link/settings.json")
        let error = try #require(throws: StorageError.self) {
            try FileStore(url: url, options: quietOptions).setValue(.int(1), forKey: "k")
        }
        #expect(error.code == .insecurePermissions)
        #expect(access(shared.appendingPathComponent("settings.json").path, F_OK) != 0)
    }

    @Test(.enabled(if: geteuid() == 0, "runs as root"))
    func rootWritesInAStickyFolderOthersMayWrite() throws {
        #expect(chmod(shared.path, 0o1777) == 0)
        let url = shared.appendingPathComponent("settings.json")
        try FileStore(url: url, options: quietOptions).setValue(.int(1), forKey: "k")
        #expect(try FileStore(url: url, options: quietOptions).value(forKey: "k") == .int(1))
    }

    /// Another user writing their own file in a folder they share keeps working; the same user
    /// writing a file that belongs to someone else there is refused.
    @Test(.enabled(if: geteuid() == 0, "needs root to run a child as another user"))
    func aUserWritesTheirOwnFileButNotAnothersInASharedFolder() async throws {
        let own = shared.appendingPathComponent("own.json")
        let created = facts(try await ChildProcess.run(["set", own.path, "k", "v", "--drop-privileges"]))
        #expect(created["ok"] != nil, "\(created)")
        let rewritten = facts(try await ChildProcess.run(["set", own.path, "k", "w", "--drop-privileges"]))
        #expect(rewritten["ok"] != nil, "\(rewritten)")

        let others = shared.appendingPathComponent("others.json")
        try Data("{\"k\": \"root's\"}\n".utf8).write(to: others)
        #expect(chmod(others.path, 0o666) == 0)
        let refused = facts(try await ChildProcess.run(["set", others.path, "k", "x", "--drop-privileges"]))
        #expect(refused["error"]?.hasPrefix("insecurePermissions ") == true, "\(refused)")
        #expect(try Data(contentsOf: others) == Data("{\"k\": \"root's\"}\n".utf8))
    }
}
