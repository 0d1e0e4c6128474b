import Foundation
import StoredSettings
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

#if os(Linux)
/// A file bind-mounted over the settings file (Docker's `-v host.json:/app/settings.json`, a
/// Kubernetes `subPath`): the store follows the mount coming and going, and sees a write of the
/// mounted file made through its other name (the host's), which tells the settings file's
/// folder nothing.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreFileMountTests {
    /// Whether this process may bind-mount a file (root, in a mount namespace that allows it).
    private static let canBindMount: Bool = {
        guard geteuid() == 0, let scratch = try? ScratchFolder() else { return false }
        let source = scratch.file("source").path
        let target = scratch.file("target").path
        guard creat(source, 0o600) >= 0, creat(target, 0o600) >= 0 else { return false }
        guard mount(source, target, nil, UInt(MS_BIND), nil) == 0 else { return false }
        return umount(target) == 0
    }()

    /// A host folder with `host.json` and an app folder with `settings.json`, each holding `k`.
    private static func files(in scratch: ScratchFolder, host: Int, app: Int) throws -> (host: URL, app: URL) {
        let files = (scratch.file("host/host.json"), scratch.file("app/settings.json"))
        for (url, value) in [(files.0, host), (files.1, app)] {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(#"{"k": \#(value)}"#.utf8).write(to: url)
        }
        return files
    }

    /// Writes `text` into the file at `url` in place (`O_TRUNC`, no `rename`), as a program on
    /// the host saving it in place does.
    private static func writeInPlace(_ text: String, to url: URL) throws {
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    @Test(.enabled(if: canBindMount, "needs a bind mount: root, where mounting is allowed"))
    func aWriteOfTheHostFileOfAFileMountedBeforeTheStoreOpenedIsSeen() async throws {
        let scratch = try ScratchFolder()
        let (host, app) = try Self.files(in: scratch, host: 1, app: 0)
        try #require(mount(host.path, app.path, nil, UInt(MS_BIND), nil) == 0)
        defer { _ = umount(app.path) }
        let reader = try FileStore(url: app)
        #expect(reader.value(forKey: "k") == .int(1))
        var events = reader.changes().makeAsyncIterator()
        // Its watch is in place once it delivers a change made through its own name.
        try Self.writeInPlace(#"{"k": 2}"#, to: app)
        #expect(await events.next() == StoredChange(key: "k", value: .int(2)))

        try Self.writeInPlace(#"{"k": 3}"#, to: host)
        #expect(await events.next() == StoredChange(key: "k", value: .int(3)))
    }

    @Test(.enabled(if: canBindMount, "needs a bind mount: root, where mounting is allowed"))
    func aFileMountedOverTheSettingsFileAfterTheStoreOpenedIsFollowedUntilItIsUnmounted() async throws {
        let scratch = try ScratchFolder()
        let (host, app) = try Self.files(in: scratch, host: 1, app: 0)
        let reader = try FileStore(url: app)
        var events = reader.changes().makeAsyncIterator()
        try FileStore(url: app, options: quietOptions).setValue(.int(-1), forKey: "k")
        #expect(await events.next() == StoredChange(key: "k", value: .int(-1)))

        try #require(mount(host.path, app.path, nil, UInt(MS_BIND), nil) == 0)
        var mounted = true
        defer { if mounted { _ = umount(app.path) } }
        #expect(await events.next() == StoredChange(key: "k", value: .int(1)))
        try Self.writeInPlace(#"{"k": 2}"#, to: host)
        #expect(await events.next() == StoredChange(key: "k", value: .int(2)))

        #expect(umount(app.path) == 0)
        mounted = false
        #expect(await events.next() == StoredChange(key: "k", value: .int(-1)))
    }
}
#endif
