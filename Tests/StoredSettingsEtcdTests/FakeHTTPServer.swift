import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening socket on a free loopback port that gives each connection the next of its
/// answers (the last one repeated) and closes it: stands in for an etcd member that answers
/// malformed HTTP. A `nil` answer sends nothing and holds the connection open until ``stop()``,
/// like a member that froze.
///
/// Each connection's request head is kept, so a test can see what the client sent. Stopped by
/// ``stop()`` (shutting the listening socket down ends the accepting thread).
final class FakeHTTPServer: Sendable {
    /// `127.0.0.1:PORT`.
    let endpoint: String
    private let listener: Int32
    private let requests = AwaitableState<[String]>([])
    private let ended = AwaitableState(false)
    /// Connections held open by a `nil` answer, closed by ``stop()``.
    private let held = Lock<[Int32]>([])

    /// Listens and answers every connection with `answer`.
    convenience init(answer: String) throws {
        try self.init(answers: [answer])
    }

    /// Listens and answers the n-th connection with the n-th of `answers` (the last one for
    /// every later connection); `nil` holds a connection open without answering.
    init(answers: [String?]) throws {
        let (fd, port) = try Self.listeningSocket()
        listener = fd
        endpoint = "127.0.0.1:\(port)"
        let scripted = answers.map { $0.map { Array($0.utf8) } }
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        Thread.detachNewThread { [requests, ended, held] in
            var served = 0
            while true {
                let connection = Self.acceptConnection(fd)
                if connection < 0, errno == EINTR { continue }
                guard connection >= 0 else { break }
                requests.withLock { $0.append(Self.readHead(connection)) }
                guard let bytes = scripted[min(served, scripted.count - 1)] else {
                    served += 1
                    held.withLock { $0.append(connection) }
                    continue
                }
                served += 1
                _ = bytes.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, flags) }
                // The request was read to its end, so closing sends an end of stream, never a
                // reset that would cut the answer short. The client may keep its side open
                // (keep-alive) and sees the end before its next request.
                close(connection)
            }
            ended.withLock { $0 = true }
        }
    }

    /// The request heads received so far.
    var receivedHeads: [String] { requests.value }

    /// Waits until `count` requests have arrived; their heads.
    func waitForRequests(_ count: Int) async -> [String] {
        await requests.wait { $0.count >= count }
    }

    /// Stops accepting and waits for the accepting thread to end.
    func stop() async {
        shutdown(listener, Int32(SHUT_RDWR))
        _ = await ended.wait { $0 }
        close(listener)
        for connection in held.withLock({ $0 }) { shutdown(connection, Int32(SHUT_RDWR)) }
        // Shut down first, so a client blocked reading one sees end-of-file, then closed.
        for connection in held.withLock({ $0 }) { close(connection) }
    }

    /// A TCP socket, close-on-exec like the store's own (`SOCK_CLOEXEC`; set right after on
    /// Darwin, which has no such flag): a child process another test spawns must not hold it.
    static func streamSocket() -> Int32 {
        #if canImport(Darwin)
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        if fd >= 0 { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return fd
        #else
        return socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #endif
    }

    /// The next connection to `listener`, made close-on-exec at once (`accept4` is not in the
    /// Swift Glibc module).
    static func acceptConnection(_ listener: Int32) -> Int32 {
        let connection = accept(listener, nil, nil)
        if connection >= 0 { _ = fcntl(connection, F_SETFD, FD_CLOEXEC) }
        return connection
    }

    /// A socket listening on a free loopback port, and the port.
    static func listeningSocket() throws -> (descriptor: Int32, port: UInt16) {
        let fd = streamSocket()
        guard fd >= 0 else { throw EtcdCluster.Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
                    && listen(fd, 16) == 0
            }
        }
        guard bound else {
            close(fd)
            throw EtcdCluster.Failure(description: "bind: \(String(cString: strerror(errno)))")
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// Reads the request head, and its body (by `Content-Length`), which is dropped.
    private static func readHead(_ fd: Int32) -> String {
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while recv(fd, &byte, 1, 0) == 1 {
            head.append(byte)
            if head.count >= 4 && head.suffix(4) == [13, 10, 13, 10] { break }
        }
        let text = String(decoding: head, as: UTF8.self)
        var left =
            text.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        var sink = [UInt8](repeating: 0, count: 4096)
        while left > 0 {
            let count = recv(fd, &sink, min(left, sink.count), 0)
            guard count > 0 else { break }
            left -= count
        }
        return text
    }
}
