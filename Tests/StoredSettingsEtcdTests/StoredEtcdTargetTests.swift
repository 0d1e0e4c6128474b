import Foundation
import Testing

/// The `stored` tool reaches an etcd cluster as `etcd://HOST:PORT[,HOST:PORT…]/PREFIX`.
@Suite(.timeLimit(.hangGuard))
struct StoredEtcdTargetTests {
    @Test func writeThenReadThroughAnEtcdTargetPrintsTheValueEtcdctlSees() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let stored = try EtcdProgram.built("stored")
        let target = cluster.address(prefix: "daybook")
        let write = try await EtcdProgram.run(stored, ["write", target, "pageSize", "-int", "5"])
        #expect(write.exitCode == 0, "\(write.errors)")
        let read = try await EtcdProgram.run(stored, ["read", target, "pageSize"])
        #expect(read.output == "5\n", "\(read.errors)")
        #expect(try await cluster.etcdctl(["get", "daybook/pageSize", "--print-value-only"]) == "5\n")
        let keys = try await EtcdProgram.run(stored, ["keys", target])
        #expect(keys.output == "pageSize\n")
        let delete = try await EtcdProgram.run(stored, ["delete", target, "pageSize"])
        #expect(delete.exitCode == 0, "\(delete.errors)")
        let missing = try await EtcdProgram.run(stored, ["read", target, "pageSize"])
        #expect(missing.exitCode == 1)
    }

    @Test(arguments: [
        "etcd://localhost/daybook", "etcd:///daybook", "etcd://127.0.0.1:port/daybook", "etcd://:2379/daybook",
        "etcd://127.0.0.1:2379",
    ])
    func aMalformedTargetIsAUsageErrorNamingWhatWasTyped(_ target: String) async throws {
        let run = try await EtcdProgram.run(try EtcdProgram.built("stored"), ["read", target])
        #expect(run.exitCode == 64, "\(run.errors)")
        #expect(run.errors.contains("'\(target)'"), "\(run.errors)")
        #expect(!run.errors.contains("http://"), "\(run.errors)")
    }

    @Test(arguments: [
        ("STORED_ETCD_CONNECTION_TIMEOUT", "soon"), ("STORED_ETCD_REQUEST_TIMEOUT", "-1"),
        ("STORED_ETCD_PROGRESS_NOTIFY_INTERVAL", "nan"),
    ])
    func aBadSecondsVariableIsBadDataNamingTheVariableAndTheValue(_ name: String, _ value: String) async throws {
        let port = try EtcdCluster.freePort()
        // A cluster that is not there: the variable is refused before any connection.
        var environment = ["STORED_ETCD_CONNECTION_TIMEOUT": "0.2"]
        environment[name] = value
        let run = try await EtcdProgram.run(
            try EtcdProgram.built("stored"), ["read", "etcd://127.0.0.1:\(port)/daybook"], environment: environment)
        #expect(run.exitCode == 65, "\(run.errors)")
        #expect(run.errors.contains(name) && run.errors.contains("\"\(value)\""), "\(run.errors)")
    }

    @Test func anUnreachableClusterIsAnIOErrorNamingTheEndpoint() async throws {
        let port = try EtcdCluster.freePort()
        let run = try await EtcdProgram.run(
            try EtcdProgram.built("stored"), ["read", "etcd://127.0.0.1:\(port)/daybook"],
            environment: ["STORED_ETCD_CONNECTION_TIMEOUT": "0.2"]
        )
        #expect(run.exitCode == 74)
        #expect(run.errors.contains("127.0.0.1:\(port)"), "\(run.errors)")
    }

    @Test func anEtcdsTargetTakesItsCAAndClientCertificateFromTheEnvironment() async throws {
        let cluster = try await EtcdCluster.start(security: .clientCertificates)
        defer { cluster.shutDown() }
        let certificates = try #require(cluster.certificates)
        let stored = try EtcdProgram.built("stored")
        let target = cluster.address(prefix: "daybook")
        let environment = [
            "STORED_ETCD_CA_FILE": certificates.caFile, "STORED_ETCD_CERT_FILE": certificates.clientCertificateFile,
            "STORED_ETCD_KEY_FILE": certificates.clientKeyFile, "STORED_ETCD_SERVER_NAME": "localhost",
            "STORED_ETCD_CONNECTION_TIMEOUT": "600",
        ]
        let write = try await EtcdProgram.run(
            stored, ["write", target, "pageSize", "-int", "5"], environment: environment)
        #expect(write.exitCode == 0, "\(write.errors)")
        #expect(try await cluster.etcdctl(["get", "daybook/pageSize", "--print-value-only"]) == "5\n")
        var withoutCertificate = environment
        withoutCertificate["STORED_ETCD_CERT_FILE"] = nil
        withoutCertificate["STORED_ETCD_KEY_FILE"] = nil
        let refused = try await EtcdProgram.run(stored, ["read", target, "pageSize"], environment: withoutCertificate)
        #expect(refused.exitCode != 0)
        #expect(refused.errors.contains("requires a client certificate"), "\(refused.errors)")
    }
}
