import Foundation
import StoredSettings
import StoredSettingsEtcd
import StoredSettingsTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TLS exchange ends by its deadline however the member paces its bytes: a member that sends
/// a handshake record a byte at a time, each byte well inside the socket's receive limit, is
/// "no answer in time" once the connection timeout has passed, not after the whole record.
@Suite(.timeLimit(.hangGuard))
struct EtcdTLSDeadlineTests {
    @Test func aHandshakeTrickledAByteAtATimeEndsAtTheConnectionTimeout() async throws {
        let server = try TricklingServer()
        defer { server.stop() }
        let error = try await onOwnThread {
            try #require(throws: StorageError.self) {
                try EtcdStore(
                    configuration: .init(
                        endpoints: ["https://127.0.0.1:\(server.port)"], prefix: "app", connectionTimeout: 0.5))
            }
        }
        #expect(error.description.contains("no answer in time"), "\(error)")
    }
}

/// Accepts connections on a loopback port and sends each the 5-byte header of a 16 KiB TLS
/// handshake record, then one byte of it every 20 milliseconds: a record that takes over five
/// minutes to arrive, each byte far inside any receive limit. Ends when stopped.
///
/// The pause paces the member and is no measure: the test asserts only the error's text, and a
/// busy machine makes the bytes come slower still, so the deadline is passed all the same.
private final class TricklingServer: Sendable {
    let port: UInt16
    private let listener: Int32
    private let stopped = Lock(false)

    init() throws {
        (listener, port) = try FakeHTTPServer.listeningSocket()
        Thread.detachNewThread { [listener, stopped] in
            while true {
                let connection = FakeHTTPServer.acceptConnection(listener)
                if connection < 0, errno == EINTR { continue }
                guard connection >= 0 else { return }
                Thread.detachNewThread {
                    defer { close(connection) }
                    let header: [UInt8] = [0x16, 0x03, 0x03, 0x40, 0x00]
                    guard Self.write(header, on: connection) else { return }
                    for _ in 0..<16_384 where !stopped.value {
                        guard Self.write([0x01], on: connection) else { return }
                        usleep(20_000)
                    }
                }
            }
        }
    }

    func stop() {
        stopped.withLock { $0 = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func write(_ bytes: [UInt8], on connection: Int32) -> Bool {
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        return bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, flags) } == bytes.count
    }
}
