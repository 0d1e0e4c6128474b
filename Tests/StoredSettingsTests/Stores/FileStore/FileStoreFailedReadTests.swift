import Foundation
import StoredSettings
import Testing

/// A change check that cannot read the file (no descriptor free) tries again: the version it
/// missed is delivered once the file can be read, with no further change of the file.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreFailedReadTests {
    @Test func aChangeWhoseReadFailedIsDeliveredOnceDescriptorsAreFree() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let writer = try FileStore(url: url, options: quietOptions)
        try writer.setValue(.int(1), forKey: "k")
        // RLIMIT_NOFILE is global to a process: the watching store runs in a child process.
        let child = try ChildProcess.launch(["starved-watch", url.path], withInput: true)
        defer { child.sendKill() }
        #expect(child.readLine() == "ready")
        // Its watch is in place once it sees a change.
        try writer.setValue(.int(2), forKey: "k")
        #expect(child.readLine() == "changed k 2")

        child.send("exhaust")
        #expect(child.readLine() == "exhausted")
        try writer.setValue(.int(3), forKey: "k")
        #expect(child.readLine() == "reported io")
        child.send("free")
        #expect(child.readLine() == "freed")
        #expect(child.readLine() == "changed k 3")
        let (exitCode, output) = await child.finish()
        #expect(exitCode == 0, "\(output)")
    }
}
