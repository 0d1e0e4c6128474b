import Foundation
import Testing

/// The example tool reads fleet defaults from etcd below its own file when DAYBOOK_ETCD is set.
@Suite(.timeLimit(.hangGuard))
struct DaybookFleetTests {
    @Test func daybookReadsFleetDefaultsBelowItsOwnFile() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        _ = try await cluster.etcdctl(["put", "daybook/pageSize", "25"])
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-fleet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        let environment = ["XDG_CONFIG_HOME": config.path, "DAYBOOK_ETCD": cluster.address(prefix: "daybook")]
        let daybook = try EtcdProgram.built("daybook")
        let fleet = try await EtcdProgram.run(daybook, ["config", "get", "pageSize"], environment: environment)
        #expect(fleet.output == "25\n", "\(fleet.errors)")
        let origins = try await EtcdProgram.run(daybook, ["config", "list", "--show-origin"], environment: environment)
        #expect(origins.output.contains("etcd \(cluster.endpoints[0]) key daybook/pageSize"), "\(origins.output)")
        let write = try await EtcdProgram.run(daybook, ["config", "set", "pageSize", "3"], environment: environment)
        #expect(write.exitCode == 0, "\(write.errors)")
        let local = try await EtcdProgram.run(daybook, ["config", "get", "pageSize"], environment: environment)
        #expect(local.output == "3\n", "\(local.errors)")
        #expect(try await cluster.etcdctl(["get", "daybook/pageSize", "--print-value-only"]) == "25\n")
    }

    /// With its timings from the environment too, which daybook takes as its own variables.
    @Test func daybookReadsFleetDefaultsFromATLSClusterWithClientCertificates() async throws {
        let cluster = try await EtcdCluster.start(security: .clientCertificates)
        defer { cluster.shutDown() }
        let certificates = try #require(cluster.certificates)
        _ = try await cluster.etcdctl(["put", "daybook/pageSize", "25"])
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-fleet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        let environment = [
            "XDG_CONFIG_HOME": config.path, "DAYBOOK_ETCD": cluster.address(prefix: "daybook"),
            "DAYBOOK_ETCD_CA_FILE": certificates.caFile, "DAYBOOK_ETCD_CERT_FILE": certificates.clientCertificateFile,
            "DAYBOOK_ETCD_KEY_FILE": certificates.clientKeyFile, "DAYBOOK_ETCD_REQUEST_TIMEOUT": "5",
            "DAYBOOK_ETCD_PROGRESS_NOTIFY_INTERVAL": "\(EtcdCluster.progressNotifyInterval)",
        ]
        let fleet = try await EtcdProgram.run(
            try EtcdProgram.built("daybook"), ["config", "get", "pageSize"], environment: environment)
        #expect(fleet.output == "25\n", "\(fleet.errors)")
        #expect(fleet.errors.isEmpty, "\(fleet.errors)")
    }

    @Test(arguments: ["DAYBOOK_ETCD_CONNECTION_TIMEOUT", "DAYBOOK_ETCD_PROGRESS_NOTIFY_INTERVAL"])
    func aBadFleetTimingIsBadDataNamingTheVariableAndTheValue(_ name: String) async throws {
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-fleet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        // A cluster that is not there: the variable is refused before any connection.
        var environment = [
            "XDG_CONFIG_HOME": config.path, "DAYBOOK_ETCD": "etcd://127.0.0.1:\(try EtcdCluster.freePort())/daybook",
            "DAYBOOK_ETCD_CONNECTION_TIMEOUT": "0.2",
        ]
        environment[name] = "-1"
        let run = try await EtcdProgram.run(
            try EtcdProgram.built("daybook"), ["config", "get", "pageSize"], environment: environment)
        #expect(run.exitCode == 65, "\(run.errors)")
        #expect(run.errors.contains(name) && run.errors.contains("\"-1\""), "\(run.errors)")
    }

    @Test func daybookStartedWithTheClusterDownPrintsTheCachedFleetDefaultAndAWarning() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        _ = try await cluster.etcdctl(["put", "daybook/pageSize", "25"])
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("daybook-fleet-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: config) }
        let environment = ["XDG_CONFIG_HOME": config.path, "DAYBOOK_ETCD": cluster.address(prefix: "daybook")]
        let daybook = try EtcdProgram.built("daybook")
        let connected = try await EtcdProgram.run(daybook, ["config", "get", "pageSize"], environment: environment)
        #expect(connected.output == "25\n", "\(connected.errors)")
        #expect(connected.errors.isEmpty, "\(connected.errors)")
        #expect(FileManager.default.fileExists(atPath: config.appendingPathComponent("daybook/etcd-cache.json").path))

        cluster.stop(cluster.members[0])
        let cached = try await EtcdProgram.run(daybook, ["config", "get", "pageSize"], environment: environment)
        #expect(cached.exitCode == 0, "\(cached.errors)")
        #expect(cached.output == "25\n", "\(cached.errors)")
        #expect(cached.errors.hasPrefix("daybook: warning: "), "\(cached.errors)")
        #expect(cached.errors.contains("etcd-cache.json"), "\(cached.errors)")
    }
}
