import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `sudo stored write` on a file below a folder another user owns, where that user made the
/// settings file a link to a file only root may write: refused, naming the link, and the
/// target is neither created nor changed.
@Suite(.timeLimit(.hangGuard))
struct PlantedLinkTests {
    @Test(.enabled(if: geteuid() == 0, "needs root: the rule is for root writing another user's files"))
    func storedWriteAsRootRefusesALinkTheFolderOwnerPlanted() throws {
        let sandbox = try DaybookTests.Sandbox()
        #expect(chmod(sandbox.folder.path, 0o755) == 0)
        let tool = sandbox.folder.appendingPathComponent("home/.config/tool")
        try FileManager.default.createDirectory(at: tool, withIntermediateDirectories: true)
        for folder in [
            tool.deletingLastPathComponent().deletingLastPathComponent(), tool.deletingLastPathComponent(), tool,
        ] {
            #expect(chmod(folder.path, 0o755) == 0 && chown(folder.path, 65534, 65534) == 0)
        }
        let protected = sandbox.folder.appendingPathComponent("protected")
        #expect(mkdir(protected.path, 0o700) == 0)
        let target = protected.appendingPathComponent("nologin")
        let link = tool.appendingPathComponent("settings.json")
        #expect(symlink(target.path, link.path) == 0 && lchown(link.path, 65534, 65534) == 0)

        let run = try EndToEndTests.run(
            try EndToEndTests.storedExecutable(), ["write", link.path, "k", "-int", "1"], in: sandbox.folder)
        #expect(run.status == 74, "\(run)")
        #expect(run.errors.contains("symbolic link \(link.path)"), "\(run)")
        #expect(run.errors.contains("belongs to user 65534"), "\(run)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: protected.path) == [])
    }
}
