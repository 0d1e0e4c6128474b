import Foundation
import StoredSettings

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Calls etcd's v3 JSON gateway (`POST /v3/...` with a JSON body; keys and values base64),
/// trying each endpoint in turn, with the authentication token when a user is configured.
///
/// Requests are synchronous (over ``PlainHTTP``'s kept-alive connections; on Apple platforms a
/// `URLSession` data task awaited on a semaphore for `https`), because the ``Storable``
/// requirements they serve are synchronous.
///
/// Endpoints are asked in the order their ``EndpointHealth`` gives; a read while none is known
/// to answer goes to all at once (``race(_:_:)``).
///
/// Thread-safety: `Sendable`; the token and the endpoints' health are kept under a lock.
final class EtcdClient: Sendable {
    let configuration: EtcdStore.Configuration
    let session: URLSession
    /// The socket client's connections, kept alive between requests.
    let connections: ConnectionPool
    private struct State {
        var token: String?
        var health: EndpointHealth
    }
    private let state: Lock<State>

    init(configuration: EtcdStore.Configuration) {
        #if canImport(COpenSSL)
        // Before URLSession, whose libcurl may initialize OpenSSL first (see `TLSContext`).
        TLSContext.initializeOpenSSL
        #endif
        self.configuration = configuration
        connections = ConnectionPool(configuration: configuration)
        state = Lock(State(health: EndpointHealth(count: configuration.endpoints.count)))
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.requestTimeout
        sessionConfiguration.httpMaximumConnectionsPerHost = 8
        session = URLSession(configuration: sessionConfiguration)
    }

    deinit { session.invalidateAndCancel() }

    /// What a request came to: the decoded JSON object, or why not.
    enum Failure: Error {
        /// No byte reached etcd (connection refused, host unknown): safe to send elsewhere.
        case unreachable(String)
        /// The request may have reached etcd, and no answer came, or etcd answered that it is
        /// unavailable (a timed-out proposal may still commit): a write may or may not be applied.
        case noAnswer(String)
        /// etcd answered with an error: its gRPC code and message.
        case refused(code: Int, message: String)
        /// etcd answered something the store cannot use.
        case invalidAnswer(String)
        /// The TLS handshake failed on every endpoint that could be reached (untrusted or
        /// misnamed certificate, client certificate required or refused): nothing was sent.
        case tls(String)
    }

    /// What a request does, which decides whether it may be sent to the next endpoint after
    /// one that may have received it gave no answer.
    enum Request {
        /// Changes nothing (a range read, a sign-in): sent on until an endpoint answers.
        case read
        /// `update`'s transaction: sent on too, since every copy compares the same
        /// `mod_revision`, so etcd applies at most one of them.
        case compareAndSwap
        /// A put or delete, which etcd would apply again: sent on only from an endpoint that
        /// provably never received it (write-at-most-once, as etcd's own client).
        case write
    }

    /// The current token, when a user is configured.
    var token: String? { state.withLock { $0.token } }

    /// The index of the endpoint requests go to first (``EndpointHealth/order``).
    var preferredIndex: Int { state.withLock { $0.health.order.first ?? 0 } }

    /// The endpoints in the order the next request asks them (``EndpointHealth/order``).
    var orderedEndpoints: [URL] {
        let all = configuration.endpoints
        return state.withLock { $0.health.order }.map { all[$0] }
    }

    /// Whether some endpoint answered and has not failed since.
    var knowsAnsweringEndpoint: Bool { state.withLock { $0.health.hasAnswered } }

    /// Sends `body` to `path` on the first endpoint that answers, skipping those that cannot be
    /// reached and, as `request` allows, those that gave no answer. An expired token is renewed
    /// once.
    ///
    /// - Parameters:
    ///   - unanswered: Gains each endpoint that may have received the request and gave no answer
    ///     (only a ``Request/compareAndSwap`` goes on past one).
    ///   - timeout: Seconds each request may take (the whole race, for a raced read); by
    ///     default ``EtcdStore/Configuration/requestTimeout``.
    /// - Throws: ``Failure``: `.unreachable` naming every endpoint when none received it;
    ///   `.noAnswer` when a write may have reached one (at once for a ``Request/write``); `.tls`
    ///   when no endpoint could be used and every one reached refused the TLS handshake
    ///   (``Problems/isTLS``).
    func call(
        _ path: String, _ body: [String: Any], request: Request = .read, timeout: TimeInterval? = nil,
        unanswered: inout [String]
    ) throws -> [String: Any] {
        var renewed = false
        while true {
            do {
                return try callEachEndpoint(path, body, request: request, timeout: timeout, unanswered: &unanswered)
            } catch Failure.refused(let code, let message)
                where !renewed && configuration.user != nil && Self.isExpiredToken(code: code, message: message)
            {
                renewed = true
                try authenticate()
            }
        }
    }

    /// ``call(_:_:request:unanswered:)`` for a request whose unanswered endpoints the caller
    /// does not need.
    func call(_ path: String, _ body: [String: Any], request: Request = .read, timeout: TimeInterval? = nil) throws
        -> [String: Any]
    {
        var unanswered: [String] = []
        return try call(path, body, request: request, timeout: timeout, unanswered: &unanswered)
    }

    /// Whether a read may ask every endpoint at once (``race(_:_:)``): there is more than one,
    /// and ``EtcdStore/Configuration/racesFirstRead`` allows it.
    var mayRaceReads: Bool { configuration.racesFirstRead && configuration.endpoints.count > 1 }

    private func callEachEndpoint(
        _ path: String, _ body: [String: Any], request: Request, timeout: TimeInterval? = nil,
        unanswered: inout [String]
    ) throws -> [String: Any] {
        // A read while no endpoint is known to answer is hedged over them: a short-lived
        // process must not wait out a frozen member listed first.
        if request == .read && mayRaceReads && !knowsAnsweringEndpoint {
            return try race(path, body, timeout: timeout)
        }
        var problems: [(text: String, kind: ProblemKind)] = []
        for endpoint in orderedEndpoints {
            let problem: String
            do {
                let answer = try send(path, body, to: endpoint, request: request, timeout: timeout)
                remember(endpoint)
                return answer
            } catch Failure.unreachable(let text) {
                forget(endpoint)
                problems.append((text, .unreached))
                continue
            } catch Failure.tls(let text) {
                forget(endpoint)
                problems.append((text, .tls))
                continue
            } catch Failure.noAnswer(let text) {
                forget(endpoint)
                problem = text
            } catch Failure.refused(let code, let message) where Self.isLeaderless(code: code, message: message) {
                // Refused before etcd looked at the request (the require-leader header): not applied.
                forget(endpoint)
                problems.append(("\(EtcdStore.Configuration.hostAndPort(endpoint)): \(message)", .other))
                continue
            } catch Failure.refused(let code, let message) where code == 14 || Self.isTimeout(message) {
                // Unavailable or timed out after etcd took the request: a write may still commit.
                forget(endpoint)
                problem = "\(EtcdStore.Configuration.hostAndPort(endpoint)): \(message)"
            }
            problems.append((problem, .other))
            switch request {
            case .read: continue
            case .compareAndSwap: unanswered.append(problem)
            case .write: throw Failure.noAnswer(problem)
            }
        }
        let all = Problems(problems)
        if request != .read && !unanswered.isEmpty { throw Failure.noAnswer(all.text) }
        if all.isTLS { throw Failure.tls(all.text) }
        throw Failure.unreachable(all.text)
    }

    /// Records that `endpoint` answered; `leading` sends the next requests to it first.
    func remember(_ endpoint: URL, leading: Bool = true) {
        guard let index = configuration.endpoints.firstIndex(of: endpoint) else { return }
        state.withLock { $0.health.answered(index, leading: leading) }
    }

    /// Records that `endpoint` could not be reached, gave no answer or had no leader: the next
    /// requests ask it after every other.
    func forget(_ endpoint: URL) {
        guard let index = configuration.endpoints.firstIndex(of: endpoint) else { return }
        state.withLock { $0.health.failed(index) }
    }

    /// Whether requests to `endpoint` go through `URLSession` rather than ``PlainHTTP``:
    /// `https` endpoints on Apple platforms, where `URLSession` carries TLS (on Linux,
    /// ``PlainHTTP`` does, with OpenSSL).
    static func usesURLSession(_ endpoint: URL) -> Bool {
        #if canImport(COpenSSL)
        false
        #else
        EtcdStore.Configuration.isTLS(endpoint)
        #endif
    }

    /// One request to one endpoint: over ``PlainHTTP``, or `URLSession` (see
    /// ``usesURLSession(_:)``).
    func send(
        _ path: String, _ body: [String: Any], to endpoint: URL, request: Request = .read, timeout: TimeInterval? = nil
    ) throws -> [String: Any] {
        let (status, data) = try exchange(
            path, try GatewayJSON.data(body), with: endpoint, request: request, timeout: timeout)
        return try Self.decode(status: status, data)
    }

    /// Sends `bytes` to `path` on `endpoint`; the answer's status and body. A write over
    /// ``PlainHTTP`` stops waiting once its member has a new leader (``leaderChangeCheck(for:)``).
    /// `timeout` (seconds, by default ``EtcdStore/Configuration/requestTimeout``) bounds the
    /// exchange over ``PlainHTTP``; `URLSession` keeps its configured request timeout.
    ///
    /// - Throws: ``Failure/unreachable(_:)`` or ``Failure/noAnswer(_:)``.
    func exchange(
        _ path: String, _ bytes: Data, with endpoint: URL, request: Request = .read, timeout: TimeInterval? = nil
    ) throws -> (status: Int, body: Data) {
        let name = EtcdStore.Configuration.hostAndPort(endpoint)
        let status: Int
        let data: Data
        if Self.usesURLSession(endpoint) {
            (status, data) = try sendWithURLSession(path, bytes, to: endpoint)
        } else {
            do {
                let response = try PlainHTTP.post(
                    path, to: endpoint, headers: headers, body: bytes, timeout: timeout ?? configuration.requestTimeout,
                    through: connections, whileWaiting: request == .read ? nil : leaderChangeCheck(for: endpoint))
                (status, data) = (response.status, response.body)
            } catch PlainHTTP.Failure.connect(let problem) {
                throw Failure.unreachable("\(name): \(problem)")
            } catch PlainHTTP.Failure.exchange(let problem) {
                throw Failure.noAnswer("\(name): \(problem)")
            } catch PlainHTTP.Failure.tls(let problem) {
                throw Failure.tls("\(name): \(problem)")
            }
        }
        return (status, data)
    }

    /// The JSON object of a status 200 answer.
    ///
    /// - Throws: ``Failure/refused(code:message:)`` with etcd's code and message otherwise.
    static func decode(status: Int, _ data: Data) throws -> [String: Any] {
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        guard status == 200, let object else {
            let message = object?["message"] as? String ?? object?["error"] as? String ?? "HTTP status \(status)"
            throw Failure.refused(code: (object?["code"] as? NSNumber)?.intValue ?? -1, message: message)
        }
        return object
    }

    /// The headers every request carries besides the content headers: the token, if any, and
    /// etcd's require-leader metadata, so a member without a leader refuses at once (code 14,
    /// "etcdserver: no leader", before it looks at the request) instead of letting a request
    /// wait for a quorum until etcd's own timeout.
    var headers: [String: String] {
        var headers = [EtcdWatcher.requireLeader: "true"]
        if let token { headers["Authorization"] = token }
        return headers
    }

    /// Whether etcd refused a request because the member has no leader: the require-leader
    /// check, made before the request is looked at, so nothing was applied.
    static func isLeaderless(code: Int, message: String) -> Bool {
        code == 14 && message.contains("no leader")
    }

    /// Whether etcd's refusal says the request timed out inside etcd (a proposal that may
    /// still commit: "request timed out", "context deadline exceeded").
    static func isTimeout(_ message: String) -> Bool {
        message.contains("timed out") || message.contains("deadline exceeded")
    }

    private func sendWithURLSession(_ path: String, _ bytes: Data, to endpoint: URL) throws -> (Int, Data) {
        try configuration.checkURLSessionTLS()
        var request = makeRequest(path, to: endpoint)
        request.httpBody = bytes
        let name = EtcdStore.Configuration.hostAndPort(endpoint)
        let result = Lock<(Data?, URLResponse?, (any Error)?)>((nil, nil, nil))
        let done = DispatchSemaphore(value: 0)
        let task = session.dataTask(with: request) { data, response, error in
            result.withLock { $0 = (data, response, error) }
            done.signal()
        }
        task.resume()
        done.wait()
        let (data, response, error) = result.value
        if let error {
            let urlError = error as? URLError
            let text = "\(name): \(urlError.map(Self.describe) ?? error.localizedDescription)"
            switch urlError?.code {
            case .cannotConnectToHost?, .cannotFindHost?, .dnsLookupFailed?, .notConnectedToInternet?:
                throw Failure.unreachable(text)
            default:
                throw Failure.noAnswer(text)
            }
        }
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data ?? Data())
    }

    /// A `URLSession` request for `path` on a TLS endpoint, with the token.
    func makeRequest(_ path: String, to endpoint: URL) -> URLRequest {
        var request = URLRequest(url: endpoint.appendingPathComponent(path))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// Obtains a token for the configured user (`/v3/auth/authenticate`) and keeps it, in place
    /// of the one held before.
    ///
    /// - Throws: `StorageError.Code.authenticationFailed` naming the user (never the
    ///   password) when etcd refuses the name or password; ``Failure`` otherwise.
    func authenticate() throws {
        guard let user = configuration.user else { return }
        let body: [String: Any] = ["name": user, "password": configuration.password ?? ""]
        // etcd refuses an authenticate request that carries a token it no longer knows, so the
        // old one is dropped first (requests meanwhile fail as unauthenticated and renew too).
        state.withLock { $0.token = nil }
        do {
            var unanswered: [String] = []
            let answer = try callEachEndpoint("v3/auth/authenticate", body, request: .read, unanswered: &unanswered)
            guard let token = answer["token"] as? String else {
                throw StorageError(
                    .authenticationFailed, location: "etcd \(configuration.endpointList)",
                    message: "etcd gave user '\(user)' no token")
            }
            state.withLock { $0.token = token }
        } catch Failure.refused(_, let message) {
            throw StorageError(
                .authenticationFailed, location: "etcd \(configuration.endpointList)",
                message: "etcd refused user '\(user)' (\(message))"
            )
        }
    }

    /// Whether etcd's answer says the token is missing, expired or unknown.
    static func isExpiredToken(code: Int, message: String) -> Bool {
        code == 16 || message.contains("invalid auth token") || message.contains("user name is empty")
    }

    static func describe(_ error: URLError) -> String {
        switch error.code {
        case .cannotConnectToHost: "connection refused"
        case .timedOut: "no answer in time"
        case .networkConnectionLost: "the connection was lost"
        case .cannotFindHost, .dnsLookupFailed: "unknown host"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
            "the TLS connection failed"
        default: "network error \(error.code.rawValue)"
        }
    }
}
