import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A fake etcd member on a free loopback port that keeps HTTP/1.1 connections alive: it
/// answers each request on a connection with `answer(path)` (a JSON body) and waits for the
/// next, and holds a watch request unanswered until ``stop()``. Each request is recorded with
/// the number of the connection it came on, so a test can see which requests shared one.
final class KeepAliveHTTPServer: Sendable {
    /// A request received: its path, body, and the number of its connection (from 0).
    struct Request: Sendable {
        var path: String
        var body: String
        var connection: Int
    }

    /// `127.0.0.1:PORT`.
    let endpoint: String
    private let listener: Int32
    private let received = AwaitableState<[Request]>([])
    /// Open connections waiting for their next request, by number.
    private let idle = Lock<[Int: Int32]>([:])
    private let open = Lock<[Int32]>([])
    private let ended = AwaitableState(false)

    init(answer: @escaping @Sendable (String) -> String) throws {
        let fd = FakeHTTPServer.streamSocket()
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0 && listen(fd, 16) == 0
            }
        }
        guard fd >= 0, bound else {
            throw EtcdCluster.Failure(description: "bind: \(String(cString: strerror(errno)))")
        }
        listener = fd
        endpoint = "127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        Thread.detachNewThread { [self] in
            var number = 0
            while true {
                let connection = FakeHTTPServer.acceptConnection(fd)
                if connection < 0, errno == EINTR { continue }
                guard connection >= 0 else { break }
                open.withLock { $0.append(connection) }
                let current = number
                number += 1
                Thread.detachNewThread { [self] in serve(connection, number: current, answer: answer) }
            }
            ended.withLock { $0 = true }
        }
    }

    /// Answers requests on `connection` until the client closes it or the server does.
    private func serve(_ connection: Int32, number: Int, answer: (String) -> String) {
        idle.withLock { $0[number] = connection }
        while true {
            guard let (path, body) = Self.readRequest(connection) else { break }
            idle.withLock { $0[number] = nil }
            received.withLock { $0.append(Request(path: path, body: body, connection: number)) }
            if path.hasSuffix("/v3/watch") {
                // Held unanswered until the client or ``stop()`` ends it.
                var sink = [UInt8](repeating: 0, count: 4096)
                while recv(connection, &sink, sink.count, 0) > 0 {}
                break
            }
            let text = answer(path)
            let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: \(text.utf8.count)\r\n\r\n\(text)".utf8)
            // Idle from before the client can have the answer: the next request is its to send.
            idle.withLock { $0[number] = connection }
            _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        idle.withLock { $0[number] = nil }
        open.withLock { open in
            open.removeAll { $0 == connection }
            close(connection)
        }
    }

    /// The requests received so far.
    var requests: [Request] { received.value }

    /// Waits until `count` requests whose path ends with `path` arrived; all requests so far.
    func waitForRequests(_ count: Int, endingWith path: String) async -> [Request] {
        await received.wait { $0.filter { $0.path.hasSuffix(path) }.count >= count }
    }

    /// Closes every connection waiting for its next request, as a member closes idle
    /// keep-alive connections (each gets its end of stream at once).
    func closeIdleConnections() {
        open.withLock { _ in
            for connection in idle.withLock({ $0.values }) { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    /// Stops accepting, ends every connection, and waits for the accepting thread to end.
    func stop() async {
        shutdown(listener, Int32(SHUT_RDWR))
        _ = await ended.wait { $0 }
        close(listener)
        open.withLock { open in
            for connection in open { shutdown(connection, Int32(SHUT_RDWR)) }
        }
    }

    /// Reads one request: its path and body (by `Content-Length`); `nil` at end of connection.
    private static func readRequest(_ fd: Int32) -> (String, String)? {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while head.count < 4 || head.suffix(4) != [13, 10, 13, 10] {
            guard recv(fd, &byte, 1, 0) == 1 else { return nil }
            head.append(byte)
        }
        let text = String(decoding: head, as: UTF8.self)
        let path = text.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        let length =
            text.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        var body = [UInt8](repeating: 0, count: length)
        var offset = 0
        while offset < length {
            let count = body.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + offset, length - offset, 0) }
            guard count > 0 else { return nil }
            offset += count
        }
        return (path, String(decoding: body, as: UTF8.self))
    }
}
