import Foundation
import StoredSettings
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Modes of new and existing files, symbolic links, and writes that the system refuses.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStorePermissionTests {
    /// The umask is global to a process, so each case runs in a child process. With `277` the
    /// files are created without their owner's write bit, and the store sets the mode itself.
    @Test(arguments: ["000", "022", "077", "277"])
    func newFilesAre0600AndNewFoldersAre0700WhateverTheUmask(_ mask: String) async throws {
        let folder = try ScratchFolder()
        let url = folder.url.appendingPathComponent("a/b/settings.json")
        let output = try await ChildProcess.run(["set", url.path, "k", "v", "--umask", mask])
        #expect(facts(output)["ok"] != nil, "\(output)")
        #expect(permissions(url.path) == 0o600)
        #expect(permissions(folder.url.appendingPathComponent("a").path) == 0o700)
        #expect(permissions(folder.url.appendingPathComponent("a/b").path) == 0o700)
        #expect(permissions(url.path + ".lock") == 0o600)
    }

    @Test func existingModeIsKept() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try Data("{}".utf8).write(to: url)
        #expect(chmod(url.path, 0o640) == 0)
        try FileStore(url: url, options: quietOptions).setValue(.int(1), forKey: "a")
        #expect(permissions(url.path) == 0o640)
    }

    @Test func fileMadeReadOnlyIsNeverReplacedAndKeepsItsValue() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try Data("{\"a\": 1}\n".utf8).write(to: url)
        #expect(chmod(url.path, 0o444) == 0)
        let store = try FileStore(url: url, options: quietOptions)
        let error = #expect(throws: StorageError.self) { try store.setValue(.int(2), forKey: "a") }
        #expect(error?.code == .io)
        #expect(error?.location == url.path)
        #expect(error?.description.contains("read-only (mode 444)") == true)
        #expect(store.value(forKey: "a") == .int(1))
        #expect(try Data(contentsOf: url) == Data("{\"a\": 1}\n".utf8))
        #expect(permissions(url.path) == 0o444)
    }

    @Test func groupWritableFileIsReported() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try Data("{\"a\": 1}".utf8).write(to: url)
        #expect(chmod(url.path, 0o664) == 0)
        let (store, reports) = try reportedErrors { try FileStore(url: url, options: quietOptions) }
        #expect(store.value(forKey: "a") == .int(1))
        #expect(reports.map(\.code) == [.insecurePermissions])
        #expect(reports.first?.location == url.path)
        try store.setValue(.int(2), forKey: "a")
        #expect(permissions(url.path) == 0o664, "the mode is reported, not changed")
    }

    @Test func symbolicLinkIsUpdatedAtItsTargetAndStaysALink() throws {
        let dotfiles = try ScratchFolder()
        let home = try ScratchFolder()
        let target = dotfiles.file("settings.json")
        try Data("{\"a\": 1}\n".utf8).write(to: target)
        let link = home.file("settings.json")
        #expect(symlink("../\(dotfiles.url.lastPathComponent)/settings.json", link.path) == 0)

        let store = try FileStore(url: link, options: quietOptions)
        #expect(store.value(forKey: "a") == .int(1))
        try store.setValue(.int(2), forKey: "a")

        var info = stat()
        #expect(lstat(link.path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFLNK)
        #expect(try FileStore(url: target, options: quietOptions).value(forKey: "a") == .int(2))
        #expect(try home.names() == ["settings.json"], "nothing is written next to the link")
        #expect(try dotfiles.names() == ["settings.json", "settings.json.lock"])
    }

    /// Root ignores folder permissions, so the child drops to user 65534 when run as root.
    @Test func readOnlyFolderThrowsIOAndKeepsTheOldValue() async throws {
        let folder = try ScratchFolder()
        #expect(chmod(folder.path, 0o755) == 0)
        let url = folder.file("settings.json")
        try Data("{\n  \"k\": \"old\"\n}\n".utf8).write(to: url)
        #expect(chmod(url.path, 0o644) == 0)
        #expect(chmod(folder.path, 0o555) == 0)
        let output = facts(try await ChildProcess.run(["set", url.path, "k", "new", "--drop-privileges"]))
        #expect(output["error"]?.hasPrefix("io ") == true, "\(output)")
        #expect(output["error"]?.contains(url.path) == true)
        #expect(output["error"]?.contains("Permission denied") == true)
        #expect(output["memory"] == "old")
        #expect(try Data(contentsOf: url) == Data("{\n  \"k\": \"old\"\n}\n".utf8))
    }

    @Test func fullDiskThrowsIOAndKeepsTheOldValue() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try FileStore(url: url, options: quietOptions).setValue(.string("old"), forKey: "k")
        let before = try Data(contentsOf: url)
        let big = String(repeating: "x", count: 100_000)
        let output = facts(try await ChildProcess.run(["set", url.path, "k", big, "--file-size-limit", "4096"]))
        #expect(output["error"]?.hasPrefix("io ") == true, "\(output)")
        #expect(output["error"]?.contains("File too large") == true)
        #expect(output["memory"] == "old")
        #expect(try Data(contentsOf: url) == before)
        #expect(try folder.names() == ["settings.json", "settings.json.lock"], "the temporary file is removed")
    }

    @Test func missingParentThatCannotBeCreatedThrowsIO() throws {
        let folder = try ScratchFolder()
        try Data("a file, not a folder".utf8).write(to: folder.file("blocker"))
        let store = try FileStore(
            url: folder.url.appendingPathComponent("blocker/sub/settings.json"), options: quietOptions)
        let error = try #require(throws: StorageError.self) { try store.setValue(.int(1), forKey: "a") }
        #expect(error.code == .io)
        #expect(error.key == "a")
        #expect(store.value(forKey: "a") == nil)
    }
}
