import Foundation
import StoredSettings
import StoredSettingsEtcd
import StoredSettingsTestSupport
import Testing

/// With several endpoints, whose first read is raced, a TLS set-up every endpoint refuses is
/// `.tlsFailed` at once, as with one endpoint: never an outage, and never served from the
/// snapshot cache. A client key that does not match its certificate is `.invalidArgument`.
@Suite(.timeLimit(.hangGuard))
struct EtcdTLSRefusalTests {
    /// The two endpoints of one member, by address and by name (its certificate names both).
    private static func endpoints(_ cluster: EtcdCluster) -> [String] {
        let port = cluster.members[0].clientPort
        return ["https://127.0.0.1:\(port)", "https://localhost:\(port)"]
    }

    @Test func refusedHandshakeOnEveryEndpointIsTLSFailedAndNeverServedFromTheCache() async throws {
        let cluster = try await EtcdCluster.start(security: .clientCertificates)
        defer { cluster.shutDown() }
        let certificates = try #require(cluster.certificates)
        // Certificates of another CA: a client certificate the members reject.
        let strangerFolder = cluster.folder.appendingPathComponent("stranger")
        try FileManager.default.createDirectory(at: strangerFolder, withIntermediateDirectories: true)
        let stranger = try await TestCertificates.make(in: strangerFolder)
        let cache = cluster.folder.appendingPathComponent("snapshot.json")
        func configuration(ca: String?, certificate: String?, key: String?) throws -> EtcdStore.Configuration {
            try EtcdStore.Configuration(
                endpoints: Self.endpoints(cluster), prefix: "app", connectionTimeout: 10, trustedCAFile: ca,
                clientCertificateFile: certificate, clientKeyFile: key, snapshotCacheFile: cache)
        }
        // A snapshot cache of these endpoints and prefix, which an outage would serve.
        do {
            let store = try EtcdStore(
                configuration: configuration(
                    ca: certificates.caFile, certificate: certificates.clientCertificateFile,
                    key: certificates.clientKeyFile))
            try store.setValue(.int(1), forKey: "x")
        }

        for (ca, certificate, key, cause) in [
            (nil, certificates.clientCertificateFile, certificates.clientKeyFile, "not trusted"),
            (certificates.caFile, nil, nil, "requires a client certificate, and none is configured"),
            (certificates.caFile, stranger.clientCertificateFile, stranger.clientKeyFile, "rejected"),
        ] {
            let error = try #require(throws: StorageError.self) {
                try EtcdStore(configuration: configuration(ca: ca, certificate: certificate, key: key))
            }
            #expect(error.code == .tlsFailed, "\(error)")
            #expect(error.description.contains(cause), "\(error)")
            #expect(!error.description.contains("tls("), "\(error)")
        }
    }

    @Test func refusedHandshakeBesideAnEndpointThatCannotBeReachedIsTLSFailed() async throws {
        let cluster = try await EtcdCluster.start(security: .tls)
        defer { cluster.shutDown() }
        // Nothing listens on the first: only the member reached can say, and it refuses.
        let endpoints = ["https://127.0.0.1:\(try EtcdCluster.freePort())", Self.endpoints(cluster)[0]]
        let error = try #require(throws: StorageError.self) {
            try EtcdStore(configuration: .init(endpoints: endpoints, prefix: "app", connectionTimeout: 10))
        }
        #expect(error.code == .tlsFailed, "\(error)")
        #expect(error.description.contains("not trusted"), "\(error)")
    }

    @Test func refusedHandshakeBesideAMemberReachedThatDoesNotAnswerIsAnOutage() async throws {
        let cluster = try await EtcdCluster.start(security: .tls)
        defer { cluster.shutDown() }
        // The second endpoint takes the request and never answers: the refusal may be the first
        // member's alone, so the open goes on trying until its timeout, as in an outage.
        let silent = try FakeHTTPServer(answers: [nil])
        let endpoints = [Self.endpoints(cluster)[0], "http://\(silent.endpoint)"]
        let opened = Result {
            try EtcdStore(
                configuration: .init(endpoints: endpoints, prefix: "app", connectionTimeout: 1, requestTimeout: 1))
        }
        await silent.stop()
        let error = try #require(throws: StorageError.self) { try opened.get() }
        #expect(error.code == .io, "\(error)")
        #expect(error.description.contains("not trusted"), "\(error)")
    }

    @Test func clientKeyNotMatchingItsCertificateIsAnInvalidArgument() async throws {
        let cluster = try await EtcdCluster.start(security: .clientCertificates)
        defer { cluster.shutDown() }
        let certificates = try #require(cluster.certificates)
        let error = try #require(throws: StorageError.self) {
            try EtcdStore(
                configuration: .init(
                    endpoints: Self.endpoints(cluster), prefix: "app", connectionTimeout: 10,
                    trustedCAFile: certificates.caFile, clientCertificateFile: certificates.clientCertificateFile,
                    clientKeyFile: certificates.serverKeyFile))
        }
        #expect(error.code == .invalidArgument, "\(error)")
        #expect(error.description.contains("does not match"), "\(error)")
    }
}
