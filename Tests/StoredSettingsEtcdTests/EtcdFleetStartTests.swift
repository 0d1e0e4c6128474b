import Foundation
import StoredSettings
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fleet restarting at once opens: every process opening one store with the default settings
/// waits its turn on a busy cluster rather than failing.
@Suite(.timeLimit(.hangGuard))
struct EtcdFleetStartTests {
    /// How many processes open at once: the fleet restart the store must survive.
    static let fleetSize = 100

    @Test func aHundredProcessesOpeningOneStoreAtOnceWithTheDefaultSettingsAllOpen() async throws {
        let cluster = try await EtcdCluster.start(size: 3)
        defer { cluster.shutDown() }
        _ = try await cluster.etcdctl(["put", "fleet/pageSize", "25"])
        // Two FIFOs every child reads to their end: closing `gate` starts every open at once,
        // closing `hold` ends the children, whose stores stay open (and watching) until then.
        let (gate, gateWriter) = try Self.fifo()
        let (hold, holdWriter) = try Self.fifo()
        defer { unlink(gate) }
        defer { unlink(hold) }
        let helper = try EtcdProgram.built("etcd-test-helper")
        let address = cluster.address(prefix: "fleet")
        var programs: [EtcdProgram] = []
        do {
            for _ in 0..<Self.fleetSize {
                programs.append(try EtcdProgram.launch(helper, ["open", address, gate, hold]))
            }
        } catch {
            close(gateWriter)
            close(holdWriter)
            throw error
        }
        for program in programs { #expect(await program.nextLine() == "waiting") }
        close(gateWriter)
        // Each child's answer in turn (its end of output when it failed): all run meanwhile.
        var opened = 0
        for program in programs where await program.nextLine() == "opened 1" { opened += 1 }
        close(holdWriter)
        var failures: [String] = []
        for program in programs {
            let run = await program.finish()
            if run.exitCode != 0 { failures.append(run.errors) }
        }
        #expect(
            opened == Self.fleetSize,
            "\(Self.fleetSize - opened) of \(Self.fleetSize) opens failed; first: \(failures.first ?? "")")
    }

    /// A new FIFO and a descriptor writing to it, opened read-write so that opening does not wait
    /// for a reader, and not inherited, so that readers see the end once it is closed.
    private static func fifo() throws -> (path: String, writer: Int32) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fleet-\(UUID().uuidString)").path
        try #require(mkfifo(path, 0o600) == 0)
        let writer = open(path, O_RDWR | O_CLOEXEC)
        try #require(writer >= 0)
        return (path, writer)
    }
}
