import Foundation
import StoredSettings
import StoredSettingsEtcd
import StoredSettingsTestSupport
import Testing

/// `EtcdStore` against real etcd members serving clients over TLS, with certificates the
/// tests make: a CA file, client certificates, server-name checking, and a failed handshake
/// named at once.
@Suite(.timeLimit(.hangGuard))
struct EtcdTLSTests {
    /// A configuration for `cluster`'s TLS endpoints. Opening waits up to an hour for an
    /// endpoint, so a TLS failure retried like an unreachable member would hang (and the hang
    /// guard would fail the test) instead of being reported at once.
    private func configuration(
        _ cluster: EtcdCluster, trustedCA: Bool = true, clientCertificate: Bool = true, serverName: String? = nil
    ) throws -> EtcdStore.Configuration {
        let certificates = try #require(cluster.certificates)
        return try EtcdStore.Configuration(
            endpoints: cluster.endpoints, prefix: "app", connectionTimeout: 3600,
            trustedCAFile: trustedCA ? certificates.caFile : nil,
            clientCertificateFile: clientCertificate ? certificates.clientCertificateFile : nil,
            clientKeyFile: clientCertificate ? certificates.clientKeyFile : nil,
            serverName: serverName)
    }

    @Test func trustedCAAndClientCertificateWriteReadWatchAndUpdate() async throws {
        let cluster = try await EtcdCluster.start(security: .clientCertificates)
        defer { cluster.shutDown() }
        let store = try EtcdStore(configuration: configuration(cluster))
        let changes = store.changes()
        try store.setValue(.int(5), forKey: "pageSize")
        #expect(store.value(forKey: "pageSize") == .int(5))
        _ = try await cluster.etcdctl(["put", "app/theme", "dark"])
        let seen = await firstChanges(2, of: changes)
        #expect(seen.last == StoredChange(key: "theme", value: .string("dark")))
        let doubled = try store.update(forKey: "pageSize") { value -> Int64 in
            guard case .int(let number)? = value else { return 0 }
            value = .int(number * 2)
            return number * 2
        }
        #expect(doubled == 10)
        #expect(try await cluster.etcdctl(["get", "app/pageSize", "--print-value-only"]) == "10\n")
        #expect(try store.committedValue(forKey: "theme") == .string("dark"))
    }

    @Test func withoutTheCAFileTheMemberIsUntrustedAtOnce() async throws {
        let cluster = try await EtcdCluster.start(security: .tls)
        defer { cluster.shutDown() }
        let error = try #require(throws: StorageError.self) {
            try EtcdStore(configuration: configuration(cluster, trustedCA: false, clientCertificate: false))
        }
        #expect(error.code == .tlsFailed, "\(error)")
        #expect(error.description.contains("not trusted"), "\(error)")
        #expect(error.description.contains("trustedCAFile"), "\(error)")
    }

    @Test func memberRequiringClientCertificatesNamesTheMissingCertificate() async throws {
        let cluster = try await EtcdCluster.start(security: .clientCertificates)
        defer { cluster.shutDown() }
        let error = try #require(throws: StorageError.self) {
            try EtcdStore(configuration: configuration(cluster, clientCertificate: false))
        }
        #expect(error.code == .tlsFailed, "\(error)")
        #expect(error.description.contains("requires a client certificate, and none is configured"), "\(error)")
    }

    @Test func certificateNotNamingTheServerIsANameMismatch() async throws {
        let cluster = try await EtcdCluster.start(security: .tls)
        defer { cluster.shutDown() }
        let error = try #require(throws: StorageError.self) {
            try EtcdStore(configuration: configuration(cluster, serverName: "etcd.example.com"))
        }
        #expect(error.code == .tlsFailed, "\(error)")
        #expect(error.description.contains("does not name etcd.example.com"), "\(error)")
        // The certificate names localhost: checked by name (and sent as SNI), it is accepted.
        let store = try EtcdStore(configuration: configuration(cluster, serverName: "localhost"))
        try store.setValue(.bool(true), forKey: "flag")
        #expect(try store.committedValue(forKey: "flag") == .bool(true))
    }

    @Test func unreadableCAFileIsNamed() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString).pem")
            .path
        let error = try #require(throws: StorageError.self) {
            try EtcdStore(
                configuration: .init(
                    endpoints: ["https://127.0.0.1:1"], prefix: "app", connectionTimeout: 3600,
                    trustedCAFile: missing))
        }
        #expect(error.location == missing, "\(error)")
        #expect(error.description.contains("CA file"), "\(error)")
    }

    @Test func memberClosingTheTLSConnectionMidAnswerDoesNotStopTheProcess() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("etcd-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificates = try await TestCertificates.make(in: folder)
        let answer = folder.appendingPathComponent("answer")
        try Data("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"header\":".utf8).write(to: answer)
        // `openssl s_server` sends its standard input, the answer's first bytes, then at its end
        // closes the TLS connection, and exits (one connection only): the store's request may
        // meet a closed connection, which must be an error, never SIGPIPE.
        let port = try EtcdCluster.freePort()
        let server = try EtcdProgram.launch(
            "/bin/sh",
            [
                "-c", "exec openssl s_server -accept 127.0.0.1:$0 -cert \"$1\" -key \"$2\" -naccept 1 < \"$3\"",
                String(port), certificates.serverCertificateFile, certificates.serverKeyFile, answer.path,
            ])
        while let line = await server.nextLine(), line != "ACCEPT" {}
        let error = try #require(throws: StorageError.self) {
            try EtcdStore(
                configuration: .init(
                    endpoints: ["https://127.0.0.1:\(port)"], prefix: "app", connectionTimeout: 1,
                    trustedCAFile: certificates.caFile))
        }
        _ = await server.finish()
        // Closed after the answer's first bytes, with the request read or not yet (then reset).
        #expect(error.code == .io, "\(error)")
        #expect(
            error.description.contains("closed in the middle of the answer")
                || error.description.contains("reset by peer"), "\(error)")
    }
}
