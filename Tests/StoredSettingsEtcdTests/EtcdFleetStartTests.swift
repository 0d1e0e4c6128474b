import Foundation
import StoredSettings
import StoredSettingsEtcd
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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

    @Test func anOpenWhoseFirstRoundGoesUnansweredOpensOnALaterRoundWithTheDefaultSettings() async throws {
        // Three members whose first request waits for good (a cluster too busy to answer the
        // first round in time) and whose later ones are answered: the open's first round must
        // leave room in the connection timeout for another.
        // fleet/pageSize = 25 at revision 7.
        let keyValue = #"{"key":"ZmxlZXQvcGFnZVNpemU=","value":"MjU=","mod_revision":"7"}"#
        let body = #"{"header":{"revision":"7"},"kvs":["# + keyValue + #"],"count":"1"}"#
        let answer = "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let servers = try (0..<3).map { _ in try FakeHTTPServer(answers: [nil, answer]) }
        let configuration = try EtcdStore.Configuration(endpoints: servers.map(\.endpoint), prefix: "fleet")
        let opened = Result { try EtcdStore(configuration: configuration) }
        for server in servers { await server.stop() }
        let store = try opened.get()
        #expect(store.value(forKey: "pageSize") == .int(25))
    }

    @Test func storesOpeningOnAHealthyClusterSendTheirFirstReadToOneMemberEach() async throws {
        let cluster = try await EtcdCluster.start(size: 3)
        defer { cluster.shutDown() }
        let before = try await Self.rangeRequests(cluster)
        let opens = 10
        for index in 0..<opens {
            // A prefix each, so that no store shares another's session.
            _ = try EtcdStore(
                configuration: .init(endpoints: cluster.members.map(\.endpoint), prefix: "fleet\(index)"))
        }
        let sent = try await Self.rangeRequests(cluster) - before
        // Racing every member would send 3 reads an open; hedging sends a second only when the
        // first goes unanswered for a while.
        #expect(sent < 2 * opens, "\(sent) range requests for \(opens) opens")
    }

    /// The range requests every member of `cluster` has handled, from its metrics.
    private static func rangeRequests(_ cluster: EtcdCluster) async throws -> Int {
        var total = 0
        for member in cluster.members {
            let url = try #require(URL(string: "http://127.0.0.1:\(member.clientPort)/metrics"))
            let (data, _) = try await URLSession.shared.data(from: url)
            let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first {
                $0.hasPrefix("grpc_server_started_total{grpc_method=\"Range\"")
            }
            total += try #require(line.flatMap { $0.split(separator: " ").last }.flatMap { Int($0) })
        }
        return total
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
