import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP/1.1 connection to an etcd member: a TCP socket, with TLS over it for an `https`
/// endpoint (on Linux, see `TLSSession.swift`).
///
/// Thread-safety: `@unchecked Sendable` because it is used by one thread at a time: a request
/// takes it out of its ``ConnectionPool`` (or the watch opens its own) and puts it back only
/// when done; other threads only read the immutable ``descriptor`` to shut the socket down.
final class HTTPConnection: @unchecked Sendable {
    /// The socket.
    let descriptor: Int32
    #if canImport(COpenSSL)
    private let tls: TLSSession?
    #endif
    /// Whether the last answer read leaves the connection ready for another request: HTTP/1.1
    /// without `Connection: close`, its body delimited and read to its end, nothing more.
    var reusable = false
    private var closed = false

    #if canImport(COpenSSL)
    init(descriptor: Int32, tls: TLSSession?) {
        self.descriptor = descriptor
        self.tls = tls
    }
    #else
    init(descriptor: Int32) {
        self.descriptor = descriptor
    }
    #endif

    deinit { close() }

    /// Closes the socket (and ends its TLS session); later calls do nothing.
    func close() {
        guard !closed else { return }
        closed = true
        _ = systemClose(descriptor)
    }

    /// When the exchange under way must end: a TLS session's every socket wait (inside
    /// `SSL_read`, `SSL_write`) ends by then, as ``PlainHTTP/exchange(_:_:deadline:receive:)``'s
    /// own waits do; `nil` leaves only the socket's limits.
    var deadline: Date? {
        get {
            #if canImport(COpenSSL)
            return tls?.deadline
            #else
            return nil
            #endif
        }
        set {
            #if canImport(COpenSSL)
            tls?.deadline = newValue
            #endif
        }
    }

    /// Whether bytes already received wait to be read (decrypted TLS bytes): a `poll(2)` on
    /// the socket would not see them.
    var hasBufferedBytes: Bool {
        #if canImport(COpenSSL)
        return tls?.hasBufferedBytes ?? false
        #else
        return false
        #endif
    }

    /// Whether the connection is open and idle: the member has neither closed it nor sent
    /// anything since the last answer. A reused connection is checked just before a request is
    /// written to it, so one the member closed while idle is replaced before any byte goes out.
    var isOpenAndIdle: Bool {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return !closed && !hasBufferedBytes && poll(&poller, 1, 0) == 0
    }

    /// Sends all of `bytes`.
    ///
    /// - Throws: ``PlainHTTP/Failure/connect(_:)`` when not one byte was sent;
    ///   ``PlainHTTP/Failure/exchange(_:)`` when part of the request may have been.
    func send(_ bytes: Data) throws(PlainHTTP.Failure) {
        var offset = 0
        while offset < bytes.count {
            let result = bytes.withUnsafeBytes { all in
                Result { () throws(PlainHTTP.Failure) in try write(UnsafeRawBufferPointer(rebasing: all[offset...])) }
            }
            switch result {
            case .success(let sent): offset += sent
            case .failure(.exchange(let problem)) where offset == 0: throw .connect(problem)
            case .failure(let failure): throw failure
            }
        }
    }

    private func write(_ bytes: UnsafeRawBufferPointer) throws(PlainHTTP.Failure) -> Int {
        #if canImport(COpenSSL)
        if let tls { return try tls.write(bytes) }
        #endif
        #if canImport(Darwin)
        let flags: Int32 = 0 // SO_NOSIGPIPE is set on the socket instead
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        while true {
            let sent = systemSend(descriptor, bytes.baseAddress, bytes.count, flags)
            if sent < 0, errno == EINTR { continue }
            guard sent > 0 else { throw .exchange(String(cString: strerror(errno))) }
            return sent
        }
    }

    /// Receives into `buffer`; 0 when the member closed the connection.
    ///
    /// - Throws: ``PlainHTTP/Failure/exchange(_:)`` ("no answer in time" past the socket's
    ///   receive limit); ``PlainHTTP/Failure/tls(_:)`` when the member refused the handshake.
    func receive(_ buffer: UnsafeMutableRawBufferPointer) throws(PlainHTTP.Failure) -> Int {
        #if canImport(COpenSSL)
        if let tls { return try tls.read(buffer) }
        #endif
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw .exchange(
                    errno == EAGAIN || errno == EWOULDBLOCK ? "no answer in time" : String(cString: strerror(errno)))
            }
            return count
        }
    }
}

/// `send(2)`, named apart from ``HTTPConnection/send(_:)``.
private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, bytes, count, flags)
}

/// `close(2)`, named apart from ``HTTPConnection/close()``.
private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
