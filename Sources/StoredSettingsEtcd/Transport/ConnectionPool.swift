import Foundation
import StoredSettings

/// Opens a store's connections to its members, and keeps those an answer left reusable
/// (HTTP/1.1 keep-alive), so sequential requests to one member share one connection.
///
/// A kept connection is handed out again only after ``HTTPConnection/isOpenAndIdle`` says the
/// member has not closed it: a connection closed while idle is replaced by a new one before any
/// byte of the request is written, so a put or delete is never written to a connection that
/// may already be closed (and so never needs sending again).
///
/// Thread-safety: `Sendable`; the idle connections and the TLS settings are kept under locks.
final class ConnectionPool: Sendable {
    /// How many idle connections are kept per endpoint.
    static let idleLimit = 4

    private let configuration: EtcdStore.Configuration
    private let idle = Lock<[URL: [HTTPConnection]]>([:])
    #if canImport(COpenSSL)
    /// The TLS settings, loaded at the first `https` connection (or why they could not be).
    private let tls = Lock<Result<TLSContext, StorageError>?>(nil)
    #endif

    init(configuration: EtcdStore.Configuration) {
        self.configuration = configuration
    }

    /// An idle connection to `endpoint` the member has not closed, or `nil`; closes those it
    /// has.
    func take(_ endpoint: URL) -> HTTPConnection? {
        while let connection = idle.withLock({ $0[endpoint]?.popLast() }) {
            if connection.isOpenAndIdle { return connection }
            connection.close()
        }
        return nil
    }

    /// Keeps `connection` for the next request to `endpoint` when its answer left it reusable
    /// and fewer than ``idleLimit`` are kept; closes it otherwise.
    func giveBack(_ connection: HTTPConnection, to endpoint: URL) {
        let kept =
            connection.reusable
            && idle.withLock { idle -> Bool in
                guard idle[endpoint, default: []].count < Self.idleLimit else { return false }
                idle[endpoint, default: []].append(connection)
                return true
            }
        if !kept { connection.close() }
    }

    /// A new connection to `endpoint`, its TLS handshake done for `https` by `deadline` and
    /// within `timeout` (see ``PlainHTTP/connect(to:timeout:receiveTimeout:)`` for the limits).
    ///
    /// - Throws: ``PlainHTTP/Failure``; a `StorageError` naming the file when the TLS settings
    ///   cannot be loaded, or saying that the TLS options need Linux.
    func open(_ endpoint: URL, timeout: TimeInterval, receiveTimeout: TimeInterval? = nil, deadline: Date? = nil)
        throws -> HTTPConnection
    {
        #if canImport(COpenSSL)
        let context = try EtcdStore.Configuration.isTLS(endpoint) ? tlsContext() : nil
        let descriptor = try PlainHTTP.connect(to: endpoint, timeout: timeout, receiveTimeout: receiveTimeout)
        do {
            let limit = Date(timeIntervalSinceNow: EtcdStore.Configuration.usable(timeout))
            let session = try context?.session(
                over: descriptor, host: endpoint.host ?? "", deadline: min(limit, deadline ?? limit))
            return HTTPConnection(descriptor: descriptor, tls: session)
        } catch {
            close(descriptor)
            throw error
        }
        #else
        return HTTPConnection(
            descriptor: try PlainHTTP.connect(to: endpoint, timeout: timeout, receiveTimeout: receiveTimeout))
        #endif
    }

    #if canImport(COpenSSL)
    private func tlsContext() throws(StorageError) -> TLSContext {
        try tls.withLock { loaded in
            let result = loaded ?? Result { () throws(StorageError) in try TLSContext(configuration: configuration) }
            loaded = result
            return result
        }.get()
    }
    #endif

    deinit {
        for connection in idle.withLock({ $0.values.joined() }) { connection.close() }
    }
}
