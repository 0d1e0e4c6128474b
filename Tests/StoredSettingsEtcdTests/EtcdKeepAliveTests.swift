import Foundation
import StoredSettings
import StoredSettingsEtcd
import Testing

/// The store's requests share a kept-alive connection, and one the member closed while idle is
/// replaced before a request is written to it, so a write is still sent exactly once.
@Suite(.timeLimit(.hangGuard))
struct EtcdKeepAliveTests {
    /// A member that answers a range with `pageSize` = 5 and a put without a revision (so the
    /// write waits for no watch event).
    private func fakeMember() throws -> KeepAliveHTTPServer {
        try KeepAliveHTTPServer { path in
            guard path.hasSuffix("/v3/kv/range") else { return #"{"header":{}}"# }
            let key = Data("app/pageSize".utf8).base64EncodedString()
            let value = Data("5".utf8).base64EncodedString()
            return #"{"header":{"revision":"3"},"kvs":[{"key":"\#(key)","value":"\#(value)","mod_revision":"3"}]}"#
        }
    }

    @Test func sequentialRequestsShareOneConnection() async throws {
        let server = try fakeMember()
        let store = try EtcdStore(configuration: .init(endpoints: [server.endpoint], prefix: "app"))
        for _ in 0..<5 { #expect(try store.committedValue(forKey: "pageSize") == .int(5)) }
        let ranges = await server.waitForRequests(6, endingWith: "/v3/kv/range").filter {
            $0.path.hasSuffix("/v3/kv/range")
        }
        await server.stop()
        #expect(Set(ranges.map(\.connection)).count == 1, "\(ranges.map(\.connection))")
    }

    @Test func connectionClosedWhileIdleIsReplacedAndTheWriteSentOnce() async throws {
        let server = try fakeMember()
        let store = try EtcdStore(configuration: .init(endpoints: [server.endpoint], prefix: "app"))
        let opening = server.requests.first { $0.path.hasSuffix("/v3/kv/range") }
        server.closeIdleConnections()
        try store.setValue(.int(6), forKey: "pageSize")
        let puts = await server.waitForRequests(1, endingWith: "/v3/kv/put").filter { $0.path.hasSuffix("/v3/kv/put") }
        await server.stop()
        #expect(puts.count == 1)
        #expect(puts.first?.connection != opening?.connection)
    }

    @Test func requestTextKeepsQuotesBackslashesControlCharactersAndUnicode() async throws {
        let server = try fakeMember()
        let name = "a\"b\\c\n\u{1}d é 🙂"
        _ = try? EtcdStore(configuration: .init(endpoints: [server.endpoint], prefix: "app", user: name, password: "p"))
        let sent = await server.waitForRequests(1, endingWith: "/v3/auth/authenticate").first {
            $0.path.hasSuffix("/v3/auth/authenticate")
        }
        await server.stop()
        let body = try #require(sent?.body)
        let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
        #expect(object?["name"] as? String == name, "\(body)")
        #expect(object?["password"] as? String == "p")
    }
}
