import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps an ``EtcdSnapshot`` current with etcd's streaming `/v3/watch` on the prefix, on a
/// thread of its own.
///
/// Each connection asks for every event after the snapshot's revision, so a reconnect
/// (after a member stopped, to any endpoint) misses and repeats nothing. When etcd says that
/// revision was compacted, the watcher reads the whole prefix again (the snapshot publishes
/// the differences) and watches on from there.
///
/// A watch ends when its member closes it, when the member loses its leader (the
/// require-leader header), and when it receives nothing for the configured silence limit
/// (progress notifications keep a healthy idle watch talking), or, without a progress interval,
/// when its member gives no answer to the ``WatchProbe`` sent while the watch is silent, or
/// before it is created, for a request's time. It then moves straight on to the healthiest other endpoint
/// (``EndpointHealth``); once every endpoint failed
/// in turn, the snapshot is marked disconnected since the first of those failures, and the
/// watcher pauses 0.05 s, doubling up to the configured maximum, between rounds.
///
/// Thread-safety: `Sendable`; ``stop()`` may be called from any thread.
final class EtcdWatcher: Sendable {
    private let client: EtcdClient
    private let snapshot: EtcdSnapshot
    private struct State {
        var stopped = false
        var started = false
        var task: URLSessionDataTask?
        /// The socket of the ``PlainHTTP`` watch connection, shut down by ``stop()``.
        var socket: Int32?
    }
    private let state = Lock(State())
    /// Signalled by ``stop()`` to cut a pause short.
    private let wake = DispatchSemaphore(value: 0)

    init(client: EtcdClient, snapshot: EtcdSnapshot) {
        self.client = client
        self.snapshot = snapshot
    }

    /// Starts the watch thread; with `fromCache`, it first signs in and reads the whole prefix
    /// (retrying until an endpoint answers), since the snapshot came from the cache.
    func start(fromCache: Bool = false) {
        state.withLock { $0.started = true }
        let thread = Thread { [self] in
            if fromCache { resynchronize(signingIn: true) }
            run()
        }
        thread.name = "EtcdStore watch"
        thread.start()
    }

    /// Ends the watch without waiting for its thread: the thread holds its own references to
    /// the watcher, client and snapshot, and exits when the call it is in (a connect, a read of
    /// the prefix, a sign-in, each bounded by the request timeout) returns, so releasing a
    /// store never blocks on a frozen or blackholed endpoint.
    func stop() {
        let (task, started) = state.withLock { state -> (URLSessionDataTask?, Bool) in
            state.stopped = true
            // Under the lock: the watch thread clears `socket` under it before closing the
            // descriptor, so the number shut down here cannot have been closed and reused.
            if let socket = state.socket { shutdown(socket, Int32(SHUT_RDWR)) }
            return (state.task, state.started)
        }
        guard started else { return }
        task?.cancel()
        wake.signal()
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    private func run() {
        let minimumDelay = 0.05
        var delay = minimumDelay
        let endpoints = client.configuration.endpoints
        // When the first of the watches lost in a row ended: reported once every endpoint
        // failed in turn, so a watch that fails over to a healthy member reports nothing.
        var lostSince: Date?
        var lostInARow = 0
        while !isStopped {
            // The healthiest endpoint: one that lost a watch goes behind every other.
            let endpoint = client.orderedEndpoints[0]
            let outcome = watch(endpoint)
            if isStopped { return }
            switch outcome {
            case .compacted:
                resynchronize()
                delay = minimumDelay
                continue
            case .renewToken:
                _ = try? client.authenticate()
            case .lost(let wasConnected):
                if wasConnected {
                    delay = minimumDelay
                    (lostSince, lostInARow) = (nil, 0)
                }
                client.forget(endpoint)
            }
            lostSince = lostSince ?? Date()
            lostInARow += 1
            if lostInARow >= endpoints.count, let lostSince { snapshot.setDisconnected(lostSince) }
            // Straight on to the next endpoint; a pause only once every one failed in turn.
            guard lostInARow >= endpoints.count else { continue }
            _ = wake.wait(timeout: .now() + delay)
            delay = min(delay * 2, client.configuration.maximumReconnectDelay)
        }
    }

    /// The gateway's form of etcd's require-leader metadata: a member that loses its leader
    /// ends the watch (and refuses a new one) instead of keeping it open without changes.
    static let requireLeader = "Grpc-Metadata-hasleader"

    enum Outcome {
        case lost(wasConnected: Bool)
        case compacted
        case renewToken
    }

    /// Reads the whole prefix again (after a compaction, or over a cached snapshot), until it
    /// succeeds or the watcher stops; `signingIn` signs in first, and again after etcd refused
    /// the user. A cluster that answers and refuses is reported once per reason; one that
    /// cannot be reached is waited for in silence.
    private func resynchronize(signingIn: Bool = false) {
        var delay = 0.05
        var needsSignIn = signingIn
        var reported: StorageError?
        while !isStopped {
            do {
                if needsSignIn {
                    try client.authenticate()
                    needsSignIn = false
                }
                let (keyValues, revision) = try EtcdStore.readPrefix(client: client, keyPrefix: snapshot.keyPrefix)
                snapshot.replace(with: keyValues, revision: revision)
                if signingIn { snapshot.setDisconnected(nil) }
                return
            } catch {
                if let problem = refusal(error) {
                    if signingIn && problem.code == .authenticationFailed { needsSignIn = true }
                    if problem != reported { StorageErrorReporter.report(problem) }
                    reported = problem
                }
            }
            _ = wake.wait(timeout: .now() + delay)
            delay = min(delay * 2, client.configuration.maximumReconnectDelay)
        }
    }

    /// The error to report for `error`, or `nil` when no endpoint could be reached or answered.
    private func refusal(_ error: any Error) -> StorageError? {
        switch error {
        case EtcdClient.Failure.unreachable, EtcdClient.Failure.noAnswer: return nil
        case let failure as EtcdClient.Failure:
            return EtcdStore.storageError(failure, key: nil, configuration: client.configuration)
        case let error as StorageError: return error
        default:
            return StorageError(
                .io, location: "etcd \(client.configuration.endpointList)", message: "\(error)")
        }
    }

    /// One watch connection to `endpoint`, until it ends.
    private func watch(_ endpoint: URL) -> Outcome {
        // A snapshot at Int64.max has no next revision to ask for: a protocol error, not a trap.
        let (start, overflow) = snapshot.revision.addingReportingOverflow(1)
        guard !overflow else { return .lost(wasConnected: false) }
        let body: [String: Any] = [
            "create_request": [
                "key": Gateway.base64(snapshot.keyPrefix),
                "range_end": Gateway.rangeEnd(ofPrefix: snapshot.keyPrefix),
                "start_revision": String(start),
                // A notification at least every interval on an idle watch: its silence means loss.
                "progress_notify": true,
            ]
        ]
        guard let bytes = try? JSONSerialization.data(withJSONObject: body) else { return .lost(wasConnected: false) }
        let reader = WatchStreamReader(snapshot: snapshot)
        guard EtcdClient.usesURLSession(endpoint) else { return watchOverPlainHTTP(endpoint, bytes, reader) }
        var request = client.makeRequest("v3/watch", to: endpoint)
        request.httpBody = bytes
        request.setValue("true", forHTTPHeaderField: Self.requireLeader)
        // Without a progress interval, an idle watch is normal: only a closed connection ends it.
        request.timeoutInterval = client.configuration.watchSilenceLimit ?? 365 * 24 * 3600
        let session = URLSession(configuration: .ephemeral, delegate: reader, delegateQueue: nil)
        defer { session.invalidateAndCancel() }
        let task = session.dataTask(with: request)
        let proceed = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.task = task
            return true
        }
        guard proceed else { return .lost(wasConnected: false) }
        task.resume()
        reader.finished.wait()
        state.withLock { $0.task = nil }
        return reader.outcome
    }
}

extension EtcdWatcher {
    /// One watch connection over ``PlainHTTP``, until it ends or ``stop()`` shuts it down.
    fileprivate func watchOverPlainHTTP(_ endpoint: URL, _ body: Data, _ reader: WatchStreamReader) -> Outcome {
        let configuration = client.configuration
        // Until etcd says the watch is created, a silent member is lost after a request's time.
        guard
            let connection = try? client.connections.open(
                endpoint, timeout: configuration.requestTimeout,
                receiveTimeout: configuration.watchSilenceLimit ?? configuration.requestTimeout)
        else {
            return .lost(wasConnected: false)
        }
        defer { connection.close() }
        let fd = connection.descriptor
        let proceed = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.socket = fd
            return true
        }
        guard proceed else { return .lost(wasConnected: false) }
        defer { state.withLock { $0.socket = nil } }
        var headers = client.headers
        headers[Self.requireLeader] = "true"
        let request = PlainHTTP.request("v3/watch", on: endpoint, headers: headers, body: body)
        var created = false
        var probe: WatchProbe?
        _ = try? PlainHTTP.exchange(connection, request) { piece in
            probe?.heard()
            if reader.receive(piece) { shutdown(fd, Int32(SHUT_RDWR)) }
            guard !created, reader.isConnected else { return }
            created = true
            client.remember(endpoint)
            // Created: without a progress interval an idle watch is normal, and has no limit;
            // the probe asks the member itself whether it still answers while the watch is silent.
            PlainHTTP.setReceiveTimeout(fd, configuration.watchSilenceLimit)
            if configuration.watchSilenceLimit == nil {
                probe = WatchProbe.start(client: client, endpoint: endpoint, socket: fd)
            }
        }
        probe?.stop()
        return reader.outcome
    }
}

/// The data delegate of one watch connection: splits the stream into newline-delimited JSON
/// answers and applies each to the snapshot as it arrives.
///
/// Thread-safety: URLSession calls the delegate on its serial delegate queue; the outcome is
/// kept under a lock for the watch thread to read after ``finished`` is signalled.
private final class WatchStreamReader: NSObject, URLSessionDataDelegate, Sendable {
    let snapshot: EtcdSnapshot
    let finished = DispatchSemaphore(value: 0)
    private struct State {
        var buffer = Data()
        var connected = false
        var outcome: EtcdWatcher.Outcome?
    }
    private let state = Lock(State())

    init(snapshot: EtcdSnapshot) {
        self.snapshot = snapshot
    }

    /// Whether etcd said the watch is created.
    var isConnected: Bool { state.withLock { $0.connected } }

    var outcome: EtcdWatcher.Outcome {
        state.withLock { $0.outcome ?? .lost(wasConnected: $0.connected) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if receive(data) { dataTask.cancel() }
    }

    /// Applies every whole line of the stream so far; whether the connection is to end.
    func receive(_ data: Data) -> Bool {
        let lines: [Data] = state.withLock { state in
            // Only the new bytes are searched (with memchr): the buffer before them holds no
            // newline, and a large value's line arrives in many pieces.
            var from = state.buffer.count
            state.buffer.append(data)
            var lines: [Data] = []
            var lineStart = 0
            state.buffer.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                while from < bytes.count, let found = memchr(base + from, 0x0A, bytes.count - from) {
                    let newline = base.distance(to: UnsafeRawPointer(found))
                    lines.append(Data(bytes[lineStart..<newline]))
                    (lineStart, from) = (newline + 1, newline + 1)
                }
            }
            state.buffer.removeFirst(lineStart)
            return lines
        }
        for line in lines where !line.isEmpty {
            if let outcome = handle(line) {
                state.withLock { $0.outcome = outcome }
                return true
            }
        }
        return false
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        finished.signal()
    }

    /// Applies one answer; returns how the connection ends when the answer ends it.
    private func handle(_ line: Data) -> EtcdWatcher.Outcome? {
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else {
            return .lost(wasConnected: state.withLock { $0.connected })
        }
        if let error = object["error"] as? [String: Any] {
            let code = (error["code"] as? NSNumber)?.intValue ?? -1
            let message = error["message"] as? String ?? ""
            return EtcdClient.isExpiredToken(code: code, message: message) ? .renewToken : .lost(wasConnected: false)
        }
        guard let result = object["result"] as? [String: Any] else { return nil }
        if Gateway.int64(result["compact_revision"]) > 0 { return .compacted }
        if result["canceled"] as? Bool == true {
            // etcd cancels a watch whose token it no longer knows (a member restart may forget
            // simple tokens; they also expire) with a normal answer, often marked `created` too.
            let reason = result["cancel_reason"] as? String ?? ""
            if EtcdClient.isExpiredToken(code: -1, message: reason) || reason.contains("permission denied") {
                return .renewToken
            }
            return .lost(wasConnected: state.withLock { $0.connected })
        }
        if result["created"] as? Bool == true {
            state.withLock { $0.connected = true }
            snapshot.setDisconnected(nil)
        }
        let events: [(kv: Gateway.KeyValue, isDelete: Bool)] = (result["events"] as? [Any] ?? []).compactMap { event in
            guard let event = event as? [String: Any], let kv = Gateway.keyValue(event["kv"]) else { return nil }
            return (kv, event["type"] as? String == "DELETE")
        }
        if !events.isEmpty { snapshot.apply(events) }
        return nil
    }
}
