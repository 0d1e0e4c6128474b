import Foundation
import StoredSettings
import TestHelpers
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

    /// A `SIGHUP` sent the moment follow says it is ready is never lost: the ready line comes
    /// once the signal handlers are in place (Dispatch places them on its own thread, after
    /// the source is resumed, and the signal is ignored until then).
    @Test func aSIGHUPSentAsSoonAsFollowIsReadyIsNeverMissed() async throws {
        for round in 1...10 {
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
            #expect(await lines.next() == "daybook: following \(sandbox.settingsFile.path); send SIGHUP to reload it")
            try Data(#"{"pageSize": \#(round + 10)}"#.utf8).write(to: sandbox.settingsFile)
            kill(process.processIdentifier, SIGHUP)
            #expect(await lines.next() == "pageSize = \(round + 10)", "round \(round)")
            kill(process.processIdentifier, SIGTERM)
            #expect(await lines.next() == nil)
            process.waitUntilExit()
        }
    }

    /// A file that does not parse is reported once per `SIGHUP`, and a value that does not fit
    /// is printed as `(invalid)` with its reason on standard error: nothing else watches the
    /// file behind follow's back to report it again.
    @Test func aBadFileIsReportedOncePerSIGHUPAndAnInvalidValueWithItsReason() async throws {
        let sandbox = try DaybookTests.Sandbox()
        #expect(try sandbox.run("config", "set", "pageSize", "3").status == 0)
        let process = try sandbox.process(["follow"])
        let output = try CloseOnExecPipe.make()
        let errors = try CloseOnExecPipe.make()
        process.standardOutput = FileHandle(fileDescriptor: output.write, closeOnDealloc: false)
        process.standardError = FileHandle(fileDescriptor: errors.write, closeOnDealloc: false)
        do { try process.run() } catch {
            for fd in [output.write, output.read, errors.write, errors.read] { close(fd) }
            throw error
        }
        close(output.write)
        close(errors.write)
        let lines = PipeLines(fd: output.read)
        let errorLines = PipeLines(fd: errors.read)
        #expect(await lines.next() == "daybook: following \(sandbox.settingsFile.path); send SIGHUP to reload it")

        try Data(#"{"pageSize": 4,"#.utf8).write(to: sandbox.settingsFile)
        kill(process.processIdentifier, SIGHUP)
        #expect(
            await errorLines.next()
                == "daybook: \(sandbox.settingsFile.path): expected a key in quotes at line 1, column 16.")
        try Data(#"{"pageSize": "many"}"#.utf8).write(to: sandbox.settingsFile)
        kill(process.processIdentifier, SIGHUP)
        #expect(await lines.next() == "pageSize = (invalid)")
        let reason = await errorLines.next() ?? ""
        #expect(reason.hasPrefix("daybook: Setting 'pageSize' in file "), "\(reason)")
        #expect(reason.hasSuffix(": expected Int (a whole number), found string \"many\"."), "\(reason)")
        try Data(#"{"pageSize": 7}"#.utf8).write(to: sandbox.settingsFile)
        kill(process.processIdentifier, SIGHUP)
        #expect(await lines.next() == "pageSize = 7")
        kill(process.processIdentifier, SIGTERM)
        #expect(await lines.next() == nil)
        // Nothing else was reported: no second line for the file that did not parse.
        #expect(await errorLines.next() == nil)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
