import Foundation
import StoredSettings
import StoredSettingsEtcd
import Testing

/// `EtcdStore` against a fake member on a loopback socket that answers malformed HTTP: every
/// malformed answer is an `.io` error, never a crash.
@Suite(.timeLimit(.hangGuard))
struct EtcdMalformedAnswerTests {
    /// Opens a store on `server` alone, waiting at most `timeout` seconds for an answer; the
    /// error it throws.
    private func openingError(on server: FakeHTTPServer, timeout: TimeInterval = 0.3) throws -> StorageError {
        try #require(throws: StorageError.self) {
            try EtcdStore(
                configuration: .init(endpoints: [server.endpoint], prefix: "app", connectionTimeout: timeout))
        }
    }

    @Test func negativeContentLengthIsAnIOErrorNotACrash() async throws {
        let server = try FakeHTTPServer(answer: "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n{}")
        let error = try openingError(on: server)
        await server.stop()
        #expect(error.code == .io)
        #expect(error.description.contains(server.endpoint), "\(error)")
    }

    @Test func negativeChunkSizeIsAnIOErrorNotACrash() async throws {
        let server = try FakeHTTPServer(
            answer: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n{}\r\n0\r\n\r\n")
        let error = try openingError(on: server)
        await server.stop()
        #expect(error.code == .io)
        #expect(error.description.contains("chunk"), "\(error)")
    }

    @Test func chunkSizeWithASignOrSpaceIsAnIOError() async throws {
        let server = try FakeHTTPServer(
            answer: "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n+2\r\n{}\r\n0\r\n\r\n")
        let error = try openingError(on: server)
        await server.stop()
        #expect(error.code == .io)
        #expect(error.description.contains("chunk"), "\(error)")
    }

    @Test func answerHeadWithoutEndIsRefusedOnceOverTheHeadLimit() async throws {
        let header = "X-Filler: " + String(repeating: "a", count: 200) + "\r\n"
        let server = try FakeHTTPServer(answer: "HTTP/1.1 200 OK\r\n" + String(repeating: header, count: 1000))
        // Reading 64 KiB of head may outlast 0.3 s on a busy machine (it did under
        // ThreadSanitizer), and then the error is the timeout's, not the head's. The store
        // retries the member until the timeout, so the test takes that long.
        let error = try openingError(on: server, timeout: 10)
        await server.stop()
        #expect(error.code == .io)
        #expect(error.description.contains("head"), "\(error)")
    }

    @Test func revisionAtInt64MaxIsAProtocolErrorNotACrash() async throws {
        let body = #"{"header":{"revision":"9223372036854775807"}}"#
        let server = try FakeHTTPServer(answer: "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let error = try openingError(on: server)
        await server.stop()
        #expect(error.code == .io)
        #expect(error.description.contains("revision"), "\(error)")
    }

    @Test func httpEndpointPathPrefixesEveryRequestPath() async throws {
        let body = #"{"header":{"revision":"1"}}"#
        let server = try FakeHTTPServer(answer: "HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let store = try EtcdStore(
            configuration: .init(endpoints: ["http://\(server.endpoint)/gateway"], prefix: "app", connectionTimeout: 1))
        let heads = await server.waitForRequests(1)
        withExtendedLifetime(store) {}
        await server.stop()
        #expect(heads.first?.hasPrefix("POST /gateway/v3/kv/range HTTP/1.1\r\n") == true, "\(heads)")
    }
}
