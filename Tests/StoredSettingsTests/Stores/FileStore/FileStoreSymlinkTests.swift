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

/// Symbolic links are followed by the rule of Linux's `fs.protected_symlinks`, whatever the
/// system's setting, and a dangling link never makes the store create folders.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreSymlinkTests {
    /// A sticky world-writable folder (like /tmp), owned by this user, next to a private one.
    struct Folders {
        let scratch: ScratchFolder
        let shared: URL
        let secret: URL

        init() throws {
            scratch = try ScratchFolder()
            shared = scratch.file("shared")
            #expect(mkdir(shared.path, 0o755) == 0)
            #expect(chmod(shared.path, 0o1777) == 0)
            let privateFolder = scratch.file("private")
            #expect(mkdir(privateFolder.path, 0o700) == 0)
            secret = privateFolder.appendingPathComponent("settings.json")
            try Data("{\"secret\": 1}\n".utf8).write(to: secret)
        }

        /// A link in the shared folder to the private file, owned by `owner`.
        func plantLink(_ name: String, owner: uid_t) -> URL {
            let link = shared.appendingPathComponent(name)
            #expect(symlink(secret.path, link.path) == 0)
            #expect(lchown(link.path, owner, gid_t(owner)) == 0)
            return link
        }
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to create a link owned by another user"))
    func linkOfAnotherUserInAStickyWorldWritableFolderIsNotFollowed() throws {
        let folders = try Folders()
        let link = folders.plantLink("settings.json", owner: 65534)
        let error = try #require(throws: StorageError.self) { try FileStore(url: link, options: quietOptions) }
        #expect(error.code == .io)
        #expect(error.location == link.path)
        #expect(error.description.contains("symbolic link"), "\(error)")
        #expect(try Data(contentsOf: folders.secret) == Data("{\"secret\": 1}\n".utf8))
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to create a link owned by another user"))
    func linkPlantedAfterOpeningIsNotFollowedByAWrite() throws {
        let folders = try Folders()
        let store = try FileStore(url: folders.shared.appendingPathComponent("settings.json"), options: quietOptions)
        _ = folders.plantLink("settings.json", owner: 65534)
        let error = try #require(throws: StorageError.self) { try store.setValue(.int(2), forKey: "secret") }
        // A write through another user's link is refused before the link-following rule is asked.
        #expect(error.code == .insecurePermissions)
        #expect(error.key == "secret")
        #expect(try Data(contentsOf: folders.secret) == Data("{\"secret\": 1}\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: folders.secret.path + ".lock"))
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to create a link owned by another user"))
    func linkPlantedAfterOpeningIsReportedOnceByTheChangeCheck() throws {
        let folders = try Folders()
        let store = try FileStore(url: folders.shared.appendingPathComponent("settings.json"), options: quietOptions)
        _ = folders.plantLink("settings.json", owner: 65534)
        let (_, reports) = reportedErrors {
            store.checkForExternalChange()
            store.checkForExternalChange()
        }
        #expect(reports.map(\.code) == [.io])
        #expect(reports.first?.description.contains("symbolic link") == true, "\(reports)")
        #expect(store.value(forKey: "secret") == nil, "the target was not read")
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to create a link owned by another user"))
    func linksOfTheCallerOrOfTheFolderOwnerAreFollowed() throws {
        let folders = try Folders()
        let own = folders.plantLink("own.json", owner: geteuid())
        #expect(try FileStore(url: own, options: quietOptions).value(forKey: "secret") == .int(1))

        #expect(chown(folders.shared.path, 65534, 65534) == 0)
        let folderOwners = folders.plantLink("owner.json", owner: 65534)
        #expect(try FileStore(url: folderOwners, options: quietOptions).value(forKey: "secret") == .int(1))
    }

    @Test func danglingLinkDoesNotMakeTheStoreCreateFolders() throws {
        let folder = try ScratchFolder()
        let link = folder.file("settings.json")
        let missing = folder.file("missing")
        #expect(symlink(missing.appendingPathComponent("sub/settings.json").path, link.path) == 0)
        let store = try FileStore(url: link, options: quietOptions)
        let error = try #require(throws: StorageError.self) { try store.setValue(.int(1), forKey: "a") }
        #expect(error.code == .io)
        #expect(error.key == "a")
        #expect(!FileManager.default.fileExists(atPath: missing.path), "a folder was created at the link's target")
    }

    @Test func danglingLinkIntoAnExistingFolderCreatesTheFileThere() throws {
        let folder = try ScratchFolder()
        let link = folder.file("settings.json")
        let target = folder.file("real.json")
        #expect(symlink("real.json", link.path) == 0)
        try FileStore(url: link, options: quietOptions).setValue(.int(1), forKey: "a")
        #expect(try FileStore(url: target, options: quietOptions).value(forKey: "a") == .int(1))
        var info = stat()
        #expect(lstat(link.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
    }
}

/// `..` after a symbolic-linked folder leads to the link target's parent, as the kernel walks
/// the path: `home/link/../settings.json` with `home/link -> ../data/x` is
/// `data/settings.json`, never `home/settings.json`, also before that file exists.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreDotDotTests {
    let scratch: ScratchFolder
    let home: URL
    let data: URL

    init() throws {
        scratch = try ScratchFolder()
        home = scratch.file("home")
        data = scratch.file("data")
        #expect(mkdir(home.path, 0o700) == 0 && mkdir(data.path, 0o700) == 0)
        #expect(mkdir(data.appendingPathComponent("x").path, 0o700) == 0)
        #expect(symlink("../data/x", home.appendingPathComponent("link").path) == 0)
        try Data("{\"where\": \"home\"}\n".utf8).write(to: home.appendingPathComponent("settings.json"))
    }

    func expectOnlyTheDataFileChanged() throws {
        let homeText = try String(contentsOf: home.appendingPathComponent("settings.json"), encoding: .utf8)
        #expect(homeText == "{\"where\": \"home\"}\n")
        let dataValues = try FileStore(url: data.appendingPathComponent("settings.json"), options: quietOptions)
        #expect(dataValues.value(forKey: "written") == .int(1))
    }

    @Test func anAbsolutePathReadsAndWritesTheFileTheKernelOpens() throws {
        let url = URL(fileURLWithPath: home.path + "/link/../settings.json")
        let store = try FileStore(url: url, options: quietOptions)
        #expect(store.value(forKey: "where") == nil)
        try store.setValue(.int(1), forKey: "written")
        try expectOnlyTheDataFileChanged()
    }

    @Test func aPathRelativeToAFolderReadsAndWritesTheFileTheKernelOpens() throws {
        let url = URL(
            fileURLWithPath: "link/../settings.json", relativeTo: URL(fileURLWithPath: home.path, isDirectory: true))
        let store = try FileStore(url: url, options: quietOptions)
        #expect(store.value(forKey: "where") == nil)
        try store.setValue(.int(1), forKey: "written")
        try expectOnlyTheDataFileChanged()
    }

    @Test func storedWriteWritesTheFileTheKernelOpens() async throws {
        let stored = try #require(ProgramRun.storedPath)
        let path = home.path + "/link/../settings.json"
        let write = try await ProgramRun.run(stored, ["write", path, "written", "-int", "1"])
        #expect(write.exitCode == 0, "\(write.errors)")
        try expectOnlyTheDataFileChanged()
        let read = try await ProgramRun.run(stored, ["read", path])
        #expect(read.output == "{\n  \"written\": 1\n}\n", "\(read.errors)")
    }
}
