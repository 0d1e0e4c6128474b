import Foundation
import StoredSettings
import StoredSettingsEtcd
import Testing

/// Releasing an `EtcdStore` never waits for its watch thread.
@Suite(.timeLimit(.hangGuard))
struct EtcdStoreReleaseTests {
    @Test func storeWhoseWatchIsStuckInARequestIsReleasedWithoutWaitingForIt() async throws {
        let range = #"{"header":{"revision":"1"}}"#
        // A chunk telling the watch its revision was compacted, so it reads the prefix again.
        let compacted = #"{"result":{"compact_revision":"1"}}"# + "\n"
        let chunk = String(compacted.utf8.count, radix: 16)
        let server = try FakeHTTPServer(answers: [
            "HTTP/1.1 200 OK\r\nContent-Length: \(range.utf8.count)\r\n\r\n\(range)",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n\(chunk)\r\n\(compacted)\r\n0\r\n\r\n",
            nil,
        ])
        var store: EtcdStore? = try EtcdStore(
            configuration: .init(endpoints: [server.endpoint], prefix: "app", requestTimeout: 86_400))
        let changes = try #require(store).changes()
        // The third request is the new read of the prefix, which the server never answers.
        _ = await server.waitForRequests(3)
        store = nil
        // The stream ends when the store's deinit has run to its end.
        for await _ in changes {}
        await server.stop()
    }
}
