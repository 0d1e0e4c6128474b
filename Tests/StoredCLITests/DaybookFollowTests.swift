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

/// `daybook follow`, a long-running process that does not watch its settings file and
/// re-reads it on `SIGHUP`, run end to end: every wait is a read of its output pipe.
@Suite(.timeLimit(.hangGuard))
struct DaybookFollowTests {
    /// The lines a child writes to a pipe, read on a Dispatch thread (a blocking `read` never
    /// holds a thread of the test's cooperative pool).
    final class PipeLines: Sendable {
        let fd: Int32

        init(fd: Int32) { self.fd = fd }

        deinit { close(fd) }

        /// The next line, without its newline; `nil` at the end of output.
        func next() async -> String? {
            let fd = self.fd
            return await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    var bytes: [UInt8] = []
                    var byte: UInt8 = 0
                    while true {
                        let count = read(fd, &byte, 1)
                        if count < 0, errno == EINTR { continue }
                        guard count == 1 else { return continuation.resume(returning: nil) }
                        if byte == 0x0A {
                            return continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
                        }
                        bytes.append(byte)
                    }
                }
            }
        }
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func followPrintsAChangeAnotherProcessMadeOnceItGetsSIGHUP(stoppedBy stopSignal: Int32) async throws {
        let sandbox = try DaybookTests.Sandbox()
        #expect(try sandbox.run("config", "set", "pageSize", "3").status == 0)
        let process = try sandbox.process(["follow"])
        let pipe = try CloseOnExecPipe.make()
        process.standardOutput = FileHandle(fileDescriptor: pipe.write, closeOnDealloc: false)
        do { try process.run() } catch {
            close(pipe.write)
            close(pipe.read)
            throw error
        }
        close(pipe.write)
        let lines = PipeLines(fd: pipe.read)

        let ready = await lines.next()
        #expect(ready == "daybook: following \(sandbox.settingsFile.path); send SIGHUP to reload it")
        let set = try sandbox.run("config", "set", "pageSize", "5")
        #expect(set.status == 0, "\(set.error)")
        kill(process.processIdentifier, SIGHUP)
        #expect(await lines.next() == "pageSize = 5")

        #expect(try sandbox.run("config", "set", "format", "markdown").status == 0)
        kill(process.processIdentifier, SIGHUP)
        #expect(await lines.next() == "format = markdown")

        kill(process.processIdentifier, stopSignal)
        #expect(await lines.next() == nil)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }
}
