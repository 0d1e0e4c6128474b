#if canImport(COpenSSL)
import COpenSSL
import Foundation
import Glibc
import StoredSettings

// TLS to etcd members on Linux: the system's OpenSSL (libssl, a system-library target) over the
// store's own socket client. FoundationNetworking's URLSession cannot be given a CA file or a
// client certificate on Linux, reports a failed handshake only after its timeout, and stops the
// process when a connection closes before an answer. OpenSSL is the TLS library the platform
// already ships and keeps patched; through it the store checks the member's certificate against
// the configured CA file, checks the name (SNI and host name or IP address verification),
// presents a client certificate, names the cause of a failed handshake at once, and does its
// own socket I/O (see `socketMethod`), so a closed connection can never raise SIGPIPE.

/// The TLS settings shared by every connection of one store: an OpenSSL `SSL_CTX` loaded with
/// the configuration's CA file, client certificate and key.
///
/// Thread-safety: `@unchecked Sendable` because the `SSL_CTX` is configured completely in
/// `init` and only read afterwards (`SSL_new`), which OpenSSL allows from any thread at once.
final class TLSContext: @unchecked Sendable {
    private let context: OpaquePointer
    /// Whether a client certificate is configured: how a refused handshake is explained.
    let hasClientCertificate: Bool
    /// Whether a CA file is configured, rather than the system's trusted certificates.
    let hasTrustedCAFile: Bool
    /// The name member certificates must carry, instead of each endpoint's host.
    let serverName: String?

    /// Loads the CA file (or the system's trusted certificates), the client certificate and key.
    ///
    /// - Throws: `StorageError.Code.io` naming the file that cannot be read or holds no usable
    ///   PEM certificate or key; `StorageError.Code.invalidArgument` for a certificate without
    ///   a key, a key without a certificate, or a key that does not match its certificate.
    init(configuration: EtcdStore.Configuration) throws(StorageError) {
        Self.initializeOpenSSL
        guard let context = SSL_CTX_new(TLS_client_method()) else {
            throw StorageError(.io, location: "etcd", message: "OpenSSL cannot create a TLS context")
        }
        self.context = context
        hasClientCertificate = configuration.clientCertificateFile != nil
        hasTrustedCAFile = configuration.trustedCAFile != nil
        serverName = configuration.serverName
        ERR_clear_error()
        SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
        // No passphrase prompt on the terminal for an encrypted key: it fails to load instead.
        SSL_CTX_set_default_passwd_cb(context) { _, _, _, _ in 0 }
        _ = SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        // A member that closes without close_notify ends the stream; HTTP framing says whether
        // the answer was whole.
        _ = SSL_CTX_set_options(context, UInt64(1) << 7) // SSL_OP_IGNORE_UNEXPECTED_EOF
        if let file = configuration.trustedCAFile {
            try Self.load(file, role: "CA file (trustedCAFile)") { SSL_CTX_load_verify_locations(context, $0, nil) }
        } else {
            _ = SSL_CTX_set_default_verify_paths(context)
        }
        switch (configuration.clientCertificateFile, configuration.clientKeyFile) {
        case (nil, nil): break
        case (let certificate?, let key?):
            // The key first: loaded after its certificate, a key that does not match fails to
            // load as if the file held no key; loaded before, the certificate drops it, and the
            // check below names the mismatch.
            try Self.load(key, role: "client key file (clientKeyFile)") {
                SSL_CTX_use_PrivateKey_file(context, $0, SSL_FILETYPE_PEM)
            }
            try Self.load(certificate, role: "client certificate file (clientCertificateFile)") {
                SSL_CTX_use_certificate_chain_file(context, $0)
            }
            guard SSL_CTX_check_private_key(context) == 1 else {
                throw StorageError(
                    .invalidArgument, location: key,
                    message: "the client key does not match the client certificate \(certificate)")
            }
        case (_?, nil), (nil, _?):
            throw StorageError(
                .invalidArgument, location: "etcd",
                message: "clientCertificateFile and clientKeyFile go together: give both or neither")
        }
    }

    deinit { SSL_CTX_free(context) }

    /// Initializes OpenSSL without its `atexit` clean-up (`OPENSSL_INIT_NO_ATEXIT`): a process
    /// exiting while a watch thread is inside `SSL_read` would otherwise crash in memory the
    /// clean-up freed. The first initialization decides, so this runs before any other.
    static let initializeOpenSSL: Void = {
        _ = OPENSSL_init_ssl(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }()

    /// Runs an OpenSSL loader on `file`; an error naming the file and why when it fails.
    private static func load(_ file: String, role: String, _ loader: (String) -> Int32) throws(StorageError) {
        guard loader(file) != 1 else { return }
        let reason =
            FileManager.default.isReadableFile(atPath: file)
            ? "no usable PEM data (\(openSSLReason()))" : "no such readable file"
        ERR_clear_error()
        throw StorageError(.io, location: file, message: "cannot read the \(role): \(reason)")
    }

    /// A session over the connected socket `fd`, its handshake done by `deadline`: the member's
    /// certificate is trusted and names `host` (or ``serverName``).
    func session(over fd: Int32, host: String, deadline: Date) throws(PlainHTTP.Failure) -> TLSSession {
        guard let ssl = SSL_new(context) else { throw .connect("OpenSSL cannot create a TLS session") }
        let channel = SocketChannel(descriptor: fd, deadline: deadline)
        let session = TLSSession(ssl: ssl, channel: channel, context: self) // frees `ssl` when it goes
        guard let bio = BIO_new(socketMethod) else { throw .connect("OpenSSL cannot create a TLS session") }
        // The session keeps the channel alive as long as the BIO, which the SSL session owns.
        BIO_set_data(bio, Unmanaged.passUnretained(channel).toOpaque())
        BIO_set_init(bio, 1)
        SSL_set_bio(ssl, bio, bio)
        let name = serverName ?? host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if isIPAddress(name) {
            // A check that could not be installed would accept any trusted certificate: refuse.
            guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), name) == 1 else {
                throw .tls("OpenSSL cannot check the server address \(name)")
            }
        } else {
            // SSL_set_tlsext_host_name, a macro Swift does not import; OpenSSL copies the name.
            _ = name.withCString {
                SSL_ctrl(
                    ssl, SSL_CTRL_SET_TLSEXT_HOSTNAME, Int(TLSEXT_NAMETYPE_host_name),
                    UnsafeMutableRawPointer(mutating: $0))
            }
            guard SSL_set1_host(ssl, name) == 1 else { throw .tls("OpenSSL cannot check the server name \(name)") }
        }
        try session.handshake(name: name)
        return session
    }
}

/// One TLS session over one socket.
///
/// Thread-safety: not shared; its ``HTTPConnection`` is used by one thread at a time.
final class TLSSession {
    private let ssl: OpaquePointer
    private let channel: SocketChannel
    private let context: TLSContext
    /// Whether any answer byte came: an alert before the first one is a refused handshake.
    private var answered = false

    fileprivate init(ssl: OpaquePointer, channel: SocketChannel, context: TLSContext) {
        self.ssl = ssl
        self.channel = channel
        self.context = context
    }

    deinit { SSL_free(ssl) }

    /// When every socket wait inside OpenSSL ends, failing as "no answer in time"; `nil`: only
    /// the socket's own limits.
    var deadline: Date? {
        get { channel.deadline }
        set { channel.deadline = newValue }
    }

    /// Whether OpenSSL holds decrypted bytes not yet read.
    var hasBufferedBytes: Bool { SSL_pending(ssl) > 0 }

    fileprivate func handshake(name: String) throws(PlainHTTP.Failure) {
        ERR_clear_error()
        let result = SSL_connect(ssl)
        guard result != 1 else { return }
        let verify = Int32(SSL_get_verify_result(ssl))
        if verify == X509_V_ERR_HOSTNAME_MISMATCH || verify == X509_V_ERR_IP_ADDRESS_MISMATCH {
            throw .tls("the member's certificate does not name \(name) (server name mismatch)")
        }
        if verify != X509_V_OK {
            let text = String(cString: X509_verify_cert_error_string(Int(verify)))
            let trust = context.hasTrustedCAFile ? "the CA file" : "the system's CAs (no trustedCAFile is configured)"
            throw .tls("the member's certificate is not trusted by \(trust): \(text)")
        }
        throw failure(SSL_get_error(ssl, result), during: "the TLS handshake")
    }

    /// Reads decrypted bytes into `buffer`; 0 when the member closed the connection.
    func read(_ buffer: UnsafeMutableRawBufferPointer) throws(PlainHTTP.Failure) -> Int {
        while true {
            ERR_clear_error()
            let count = SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
            if count > 0 {
                answered = true
                return Int(count)
            }
            let error = SSL_get_error(ssl, count)
            if error == SSL_ERROR_ZERO_RETURN { return 0 }
            if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { continue }
            if error == SSL_ERROR_SYSCALL && channel.lastError == 0 { return 0 }
            throw failure(error, during: "reading the answer")
        }
    }

    /// Writes some of `bytes`; how many.
    func write(_ bytes: UnsafeRawBufferPointer) throws(PlainHTTP.Failure) -> Int {
        while true {
            ERR_clear_error()
            let count = SSL_write(ssl, bytes.baseAddress, Int32(clamping: min(bytes.count, 1 << 20)))
            if count > 0 { return Int(count) }
            let error = SSL_get_error(ssl, count)
            if error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE { continue }
            throw failure(error, during: "sending the request")
        }
    }

    /// What an OpenSSL error comes to. An alert from the member before any answer byte is a
    /// refused handshake (TLS 1.3 checks the client certificate after the client's handshake
    /// ends), so nothing was processed: ``PlainHTTP/Failure/tls(_:)``.
    private func failure(_ error: Int32, during step: String) -> PlainHTTP.Failure {
        if error == SSL_ERROR_SYSCALL {
            let problem = channel.lastError
            let timedOut = problem == EAGAIN || problem == EWOULDBLOCK
            let text =
                timedOut
                ? "no answer in time" : problem == 0 ? "the connection closed" : String(cString: strerror(problem))
            return answered || step != "the TLS handshake" ? .exchange(text) : .connect("\(step): \(text)")
        }
        let code = ERR_peek_last_error()
        let reason = Int32(code & 0x7F_FFFF) // ERR_GET_REASON
        let text = openSSLReason()
        ERR_clear_error()
        // SSL_R_SSLV3_ALERT_* and SSL_R_TLSV1*_ALERT_*: SSL_AD_REASON_OFFSET plus the alert.
        let alert = reason - SSL_AD_REASON_OFFSET
        guard !answered, (0..<256).contains(alert) else {
            return step == "the TLS handshake" ? .tls("\(step) failed: \(text)") : .exchange("TLS: \(text)")
        }
        // bad, unsupported, revoked, expired, unknown certificate; unknown CA; certificate required.
        // Any other alert once the request may have been written is no answer, never a refusal:
        // a write it ended may have been applied, so it must not be sent again.
        guard [42, 43, 44, 45, 46, 48, 116].contains(alert) else {
            return step == "the TLS handshake"
                ? .tls("the member refused the TLS connection (\(text))") : .exchange("TLS: \(text)")
        }
        return context.hasClientCertificate
            ? .tls("the member rejected the client certificate (\(text))")
            : .tls("the member requires a client certificate, and none is configured (\(text))")
    }
}

/// OpenSSL's reason for its most recent error, as text.
private func openSSLReason() -> String {
    let code = ERR_peek_last_error()
    guard code != 0, let text = ERR_reason_error_string(code) else { return "OpenSSL gave no reason" }
    return String(cString: text)
}

/// Whether `name` is an IPv4 or IPv6 address, which is checked as an IP address, without SNI.
private func isIPAddress(_ name: String) -> Bool {
    var address = in6_addr()
    return inet_pton(AF_INET, name, &address) == 1 || inet_pton(AF_INET6, name, &address) == 1
}

/// The socket a ``socketMethod`` BIO sends and receives on, the deadline its waits end at, and
/// the `errno` of its last call, kept before OpenSSL's own calls may change `errno`.
///
/// Used by the one thread that uses its ``TLSSession``.
private final class SocketChannel {
    let descriptor: Int32
    var deadline: Date?
    /// `errno` of the last failed send or receive (`EAGAIN` past the deadline); 0 after one
    /// that did not fail.
    var lastError: Int32 = 0

    init(descriptor: Int32, deadline: Date?) {
        self.descriptor = descriptor
        self.deadline = deadline
    }

    /// Runs `call` (a `send(2)` or `recv(2)`) once the socket is ready for `events`, restarting
    /// it on `EINTR`; -1 with ``lastError`` `EAGAIN` when ``deadline`` passes first.
    func transfer(waitingFor events: Int32, _ call: () -> Int) -> Int32 {
        lastError = 0
        if let deadline, !PlainHTTP.wait(for: Int16(events), on: descriptor, until: deadline) {
            lastError = EAGAIN
            return -1
        }
        while true {
            let result = call()
            if result < 0 && errno == EINTR { continue }
            if result < 0 { lastError = errno }
            return Int32(result)
        }
    }
}

/// The ``SocketChannel`` a ``socketMethod`` BIO holds.
private func channel(of bio: OpaquePointer?) -> SocketChannel {
    Unmanaged<SocketChannel>.fromOpaque(BIO_get_data(bio)).takeUnretainedValue()
}

/// A BIO that sends on its socket with `MSG_NOSIGNAL` and receives with `recv(2)`, each by the
/// channel's deadline. OpenSSL's own socket BIO writes with `write(2)`, which raises SIGPIPE,
/// stopping the process, when the member closed the connection, and waits only as long as the
/// socket's limit for each receive, so a member sending a byte at a time could hold a
/// handshake forever.
///
/// `nonisolated(unsafe)`: made once (a global's initializer runs once, under a lock) and only
/// read afterwards, by OpenSSL.
private nonisolated(unsafe) let socketMethod: OpaquePointer? = {
    let method = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "StoredSettingsEtcd socket")
    _ = BIO_meth_set_write(method) { bio, data, length in
        let channel = channel(of: bio)
        return channel.transfer(waitingFor: POLLOUT) {
            send(channel.descriptor, data, Int(length), Int32(MSG_NOSIGNAL))
        }
    }
    _ = BIO_meth_set_read(method) { bio, data, length in
        let channel = channel(of: bio)
        return channel.transfer(waitingFor: POLLIN) { recv(channel.descriptor, data, Int(length), 0) }
    }
    _ = BIO_meth_set_ctrl(method) { _, command, _, _ in command == BIO_CTRL_FLUSH ? 1 : 0 }
    return method
}()
#endif
