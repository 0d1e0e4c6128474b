import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// HTTP/1.1 `POST` over a POSIX TCP socket (with TLS over it for `https` on Linux, see
/// `TLSSession.swift`): connections kept alive in a ``ConnectionPool``, answers read by
/// `Content-Length`, chunked transfer coding, or to the end of the connection.
///
/// A negative or malformed `Content-Length`, a chunk size that is not hexadecimal digits, and
/// an answer head over ``maximumHeadBytes`` end the exchange with ``Failure/exchange(_:)``.
///
/// The store uses it instead of `URLSession` because the Linux `URLSession`
/// (FoundationNetworking, through Swift 6.3) stops the process with a fatal error when a
/// connection closes after the request and before any answer, which is what a stopping etcd
/// member does, and cannot be given a CA file or a client certificate. On Apple platforms
/// `https://` endpoints go through `URLSession`.
///
/// Thread-safety: stateless; each exchange uses a connection no other thread uses meanwhile.
enum PlainHTTP {
    /// Why an exchange failed.
    enum Failure: Error {
        /// Nothing was sent: the connection could not be made, or failed before the request's
        /// first byte was written.
        case connect(String)
        /// The request may have been sent, and no whole answer came.
        case exchange(String)
        /// The TLS handshake failed (the member's certificate is not trusted or does not name
        /// it, or the member refused the client's): nothing was processed, and trying again
        /// cannot help.
        case tls(String)
    }

    /// The largest answer head (status line and headers) read, in bytes: 64 KiB.
    static let maximumHeadBytes = 65_536

    /// An answer: the status code and the whole body.
    struct Response {
        var status: Int
        var body: Data
    }

    /// Connects to `endpoint`, waiting at most `timeout` seconds (a non-blocking `connect(2)`
    /// and `poll(2)`); the socket then blocks, with `timeout` as its send limit and
    /// `receiveTimeout` (by default `timeout`) as its receive limit.
    static func connect(to endpoint: URL, timeout: TimeInterval, receiveTimeout: TimeInterval? = nil) throws(Failure)
        -> Int32
    {
        let timeout = EtcdStore.Configuration.usable(timeout)
        guard let host = endpoint.host, let port = endpoint.port else { throw .connect("no host or port") }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw .connect("unknown host")
        }
        defer { freeaddrinfo(list) }
        var problem = "connection refused"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let info = candidate {
            candidate = info.pointee.ai_next
            // Close-on-exec, so a child process the app spawns holds no connection: atomically
            // on Linux (`SOCK_CLOEXEC`); Darwin has no such flag, so it is set right after.
            #if canImport(Darwin)
            let type = info.pointee.ai_socktype
            #else
            let type = info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue)
            #endif
            let fd = descriptorAboveStandardStreams(socket(info.pointee.ai_family, type, info.pointee.ai_protocol))
            guard fd >= 0 else { continue }
            #if canImport(Darwin)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            #endif
            let flags = fcntl(fd, F_GETFL)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            var result = systemConnect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen)
            if result != 0 && errno == EINPROGRESS {
                var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                let ready = poll(&poller, 1, milliseconds(timeout))
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if ready == 1, getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0, error == 0 {
                    result = 0
                } else {
                    errno = ready == 0 ? ETIMEDOUT : (error == 0 ? errno : error)
                }
            }
            guard result == 0 else {
                problem = errno == ECONNREFUSED ? "connection refused" : String(cString: strerror(errno))
                close(fd)
                continue
            }
            _ = fcntl(fd, F_SETFL, flags)
            var on: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
            #if canImport(Darwin)
            _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
            var limit = timeLimit(timeout)
            _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            setReceiveTimeout(fd, receiveTimeout ?? timeout)
            return fd
        }
        throw .connect(problem)
    }

    /// Limits each receive on `fd` to `seconds` (clamped into the configuration's range);
    /// `nil` lifts the limit.
    static func setReceiveTimeout(_ fd: Int32, _ seconds: TimeInterval?) {
        var limit = seconds.map { timeLimit(EtcdStore.Configuration.usable($0)) } ?? timeval()
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    private static func timeLimit(_ seconds: TimeInterval) -> timeval {
        var limit = timeval()
        limit.tv_sec = .init(seconds.rounded(.down))
        limit.tv_usec = .init((seconds - seconds.rounded(.down)) * 1_000_000)
        return limit
    }

    /// The bytes of a `POST` of `body` to `path` on `endpoint`.
    static func request(_ path: String, on endpoint: URL, headers: [String: String], body: Data) -> Data {
        let base = endpoint.path.hasSuffix("/") ? String(endpoint.path.dropLast()) : endpoint.path
        var head = "POST \(base)/\(path) HTTP/1.1\r\nHost: \(endpoint.host ?? ""):\(endpoint.port ?? 80)\r\n"
        head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
        return Data((head + "\r\n").utf8) + body
    }

    /// Sends `body` and returns the whole answer, all within `timeout` seconds (connecting,
    /// sending and every receive together), on an idle connection of `pool` to `endpoint` or a
    /// new one; the connection goes back to the pool when the answer leaves it reusable.
    ///
    /// - Throws: ``Failure``; a `StorageError` when the TLS settings cannot be loaded.
    static func post(
        _ path: String, to endpoint: URL, headers: [String: String], body: Data, timeout: TimeInterval,
        through pool: ConnectionPool, whileWaiting check: WaitCheck? = nil
    ) throws -> Response {
        let deadline = Date(timeIntervalSinceNow: EtcdStore.Configuration.usable(timeout))
        let bytes = request(path, on: endpoint, headers: headers, body: body)
        let connection = try pool.take(endpoint) ?? pool.open(endpoint, timeout: timeout, deadline: deadline)
        var collected = Data()
        do {
            let status = try exchange(connection, bytes, deadline: deadline, whileWaiting: check) {
                collected.append($0)
            }
            pool.giveBack(connection, to: endpoint)
            return Response(status: status, body: collected)
        } catch {
            connection.close()
            throw error
        }
    }

    /// Sends `bytes` on `connection`, reads the answer's head, and hands each piece of its body
    /// to `receive` as it arrives, until the body ends or the connection closes.
    ///
    /// With a `deadline`, each receive waits (`poll(2)`) only for the time left until it, so the
    /// whole answer takes at most that long; without one, only the socket's own limits apply.
    /// With a `check` too, a wait for the answer to begin asks it, every ``WaitCheck/interval``
    /// seconds, whether waiting on is still worth it.
    ///
    /// - Returns: The status code.
    static func exchange(
        _ connection: HTTPConnection, _ bytes: Data, deadline: Date? = nil, whileWaiting check: WaitCheck? = nil,
        receive: (Data) -> Void
    ) throws(Failure) -> Int {
        connection.reusable = false
        connection.deadline = deadline
        try connection.send(bytes)
        var buffer = Data()
        var head: Head?
        var body = BodyReader.untilClose
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let deadline, !connection.hasBufferedBytes {
                let checked = head == nil && buffer.isEmpty ? check : nil
                while !wait(
                    for: Int16(POLLIN), on: connection.descriptor,
                    until: checked.map { min(deadline, Date(timeIntervalSinceNow: $0.interval)) } ?? deadline)
                {
                    guard deadline.timeIntervalSinceNow > 0 else { throw .exchange("no answer in time") }
                    // An answer that came while the check asked is still read.
                    if let reason = checked?.givesUp(),
                        !wait(for: Int16(POLLIN), on: connection.descriptor, until: Date(timeIntervalSinceNow: 0.001))
                    {
                        throw .exchange(reason)
                    }
                }
            }
            let count = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(Failure) in try connection.receive(buffer) }
            }.get()
            if count == 0 {
                guard let head else { throw .exchange("the connection closed without an answer") }
                if case .untilClose = body { return head.status }
                throw .exchange("the connection closed in the middle of the answer")
            }
            buffer.append(contentsOf: chunk[0..<count])
            if head == nil {
                guard let end = buffer.range(of: Data("\r\n\r\n".utf8)) else {
                    guard buffer.count <= maximumHeadBytes else {
                        throw .exchange("the answer's head is over \(maximumHeadBytes) bytes")
                    }
                    continue
                }
                guard end.lowerBound - buffer.startIndex <= maximumHeadBytes else {
                    throw .exchange("the answer's head is over \(maximumHeadBytes) bytes")
                }
                let parsed = try Head(String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self))
                head = parsed
                buffer.removeSubrange(buffer.startIndex..<end.upperBound)
                body = parsed.chunked ? .chunked(BodyReader.Chunks()) : parsed.length.map { .length($0) } ?? .untilClose
            }
            if try body.consume(&buffer, receive) {
                connection.reusable = head?.keepsAlive == true && buffer.isEmpty
                return head?.status ?? 0
            }
        }
    }

    /// The status line and the headers the reader needs.
    struct Head {
        var status: Int
        var chunked = false
        var length: Int?
        /// HTTP/1.1 without `Connection: close`: the connection may carry another request.
        var keepsAlive = false

        init(_ text: String) throws(Failure) {
            let lines = text.components(separatedBy: "\r\n")
            let parts = lines.first?.split(separator: " ") ?? []
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
                throw .exchange("the answer is not HTTP")
            }
            self.status = status
            keepsAlive = parts[0] == "HTTP/1.1"
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if name == "connection", value.lowercased().contains("close") { keepsAlive = false }
                if name == "transfer-encoding", value.lowercased().contains("chunked") { chunked = true }
                if name == "content-length" {
                    guard !value.isEmpty, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let count = Int(value)
                    else {
                        throw .exchange("the Content-Length '\(value.prefix(40))' is not a length")
                    }
                    length = count
                }
            }
        }
    }

    /// How the body is delimited, and how much of it is left.
    enum BodyReader {
        case length(Int)
        case chunked(Chunks)
        case untilClose

        struct Chunks {
            /// Bytes left in the current chunk; `nil` before a size line.
            var remaining: Int?
        }

        /// Hands what `buffer` holds of the body to `receive`; whether the body ended.
        mutating func consume(_ buffer: inout Data, _ receive: (Data) -> Void) throws(Failure) -> Bool {
            switch self {
            case .untilClose:
                if !buffer.isEmpty {
                    receive(buffer)
                    buffer.removeAll()
                }
                return false
            case .length(let left):
                let piece = buffer.prefix(left)
                if !piece.isEmpty { receive(Data(piece)) }
                buffer.removeAll()
                self = .length(left - piece.count)
                return left - piece.count <= 0
            case .chunked(var chunks):
                defer { self = .chunked(chunks) }
                while true {
                    if let remaining = chunks.remaining {
                        if remaining == 0 {
                            // The CRLF after a chunk's data.
                            guard buffer.count >= 2 else { return false }
                            buffer.removeFirst(2)
                            chunks.remaining = nil
                            continue
                        }
                        guard !buffer.isEmpty else { return false }
                        let piece = buffer.prefix(remaining)
                        receive(Data(piece))
                        buffer.removeFirst(piece.count)
                        chunks.remaining = remaining - piece.count
                        continue
                    }
                    guard let end = buffer.range(of: Data("\r\n".utf8)) else { return false }
                    let line = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
                    // Hexadecimal digits only: Int(_:radix:) alone would take a sign.
                    let digits = line.split(separator: ";", omittingEmptySubsequences: false).first ?? ""
                    guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit), let size = Int(digits, radix: 16) else {
                        throw .exchange("a chunk size does not parse")
                    }
                    buffer.removeSubrange(buffer.startIndex..<end.upperBound)
                    if size == 0 { return true }
                    chunks.remaining = size
                }
            }
        }
    }
}

extension PlainHTTP {
    /// What a request asks while it waits for its answer to begin: `givesUp` returns why
    /// waiting on is pointless (the member's leader changed under a write), or `nil`.
    struct WaitCheck {
        /// Seconds between two asks.
        var interval: TimeInterval
        var givesUp: () -> String?
    }

    /// Waits (`poll(2)`) until `fd` is ready for `events` or `deadline` passes; `false` when it
    /// passed first, at once when it has passed already: an answer still streaming in past the
    /// deadline is not read on, so no member can stretch a request's time.
    static func wait(for events: Int16, on fd: Int32, until deadline: Date) -> Bool {
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var poller = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&poller, 1, milliseconds(left))
            if ready < 0, errno == EINTR { continue }
            // An error or a hang-up: the call that follows reports it.
            return ready != 0
        }
    }
}

/// `seconds` as the milliseconds `poll(2)` takes: at least 1 for a positive wait, at most a day.
private func milliseconds(_ seconds: TimeInterval) -> Int32 {
    guard seconds > 0 else { return 0 }
    return Int32(min(max(seconds * 1000, 1), 86_400_000).rounded(.up))
}

/// `connect(2)`, named apart from ``PlainHTTP/connect(to:timeout:receiveTimeout:)``.
private func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
