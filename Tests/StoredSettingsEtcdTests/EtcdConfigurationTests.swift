import Foundation
import StoredSettings
import StoredSettingsEtcd
import Testing

/// `EtcdStore.Configuration`: schemes, timeouts, and descriptions that never show the password.
@Suite(.timeLimit(.hangGuard))
struct EtcdConfigurationTests {
    @Test func upperCaseHTTPSSchemeIsTLS() throws {
        let configuration = try EtcdStore.Configuration(
            endpoints: ["HTTPS://127.0.0.1:1", "Http://127.0.0.1:2"], prefix: "app", connectionTimeout: 0.2)
        #expect(configuration.endpoints.map(\.scheme) == ["https", "http"])
        let error = try #require(throws: StorageError.self) { try EtcdStore(configuration: configuration) }
        #expect(error.description.contains("https://127.0.0.1:1"), "\(error)")
    }

    @Test func descriptionsAndMirrorRedactThePassword() throws {
        let configuration = try EtcdStore.Configuration(
            endpoints: ["127.0.0.1:2379"], prefix: "app", user: "root", password: "correct-horse")
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [String(describing: configuration), String(reflecting: configuration), dumped] {
            #expect(!text.contains("correct-horse"), "\(text)")
            #expect(text.contains("root"), "\(text)")
            #expect(text.contains("127.0.0.1:2379"), "\(text)")
        }
        let labels = Mirror(reflecting: configuration).children.compactMap(\.label)
        #expect(labels.contains("password"))
    }

    @Test(arguments: [Double.infinity, -.infinity, .nan, 0, -1, 1e300])
    func unusableTimeoutIsAnInvalidArgumentNamingTheField(seconds: Double) throws {
        let request = try #require(throws: StorageError.self) {
            try EtcdStore.Configuration(endpoints: ["127.0.0.1:2379"], prefix: "app", requestTimeout: seconds)
        }
        #expect(request.code == .invalidArgument)
        #expect(request.description.contains("requestTimeout"), "\(request)")
        let connection = try #require(throws: StorageError.self) {
            try EtcdStore.Configuration(endpoints: ["127.0.0.1:2379"], prefix: "app", connectionTimeout: seconds)
        }
        #expect(connection.code == .invalidArgument)
        #expect(connection.description.contains("connectionTimeout"), "\(connection)")
        let progress = try #require(throws: StorageError.self) {
            try EtcdStore.Configuration(
                endpoints: ["127.0.0.1:2379"], prefix: "app", progressNotifyInterval: seconds)
        }
        #expect(progress.code == .invalidArgument)
        #expect(progress.description.contains("progressNotifyInterval"), "\(progress)")
    }

    @Test func unusableTimeoutSetAfterwardsIsClampedNotACrash() async throws {
        let body = #"{"header":{"revision":"1"}}"#
        let server = try FakeHTTPServer(answer: "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        var configuration = try EtcdStore.Configuration(endpoints: [server.endpoint], prefix: "app")
        configuration.requestTimeout = .infinity
        configuration.maximumReconnectDelay = .nan
        let store = try EtcdStore(configuration: configuration)
        #expect(store.revision == 1)
        _ = await server.waitForRequests(2)
        withExtendedLifetime(store) {}
        await server.stop()
    }
}
