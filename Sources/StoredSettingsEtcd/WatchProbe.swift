import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks a watched member whether it still answers, while its watch is silent: a frozen member
/// (or a path that drops everything) keeps the watch's socket open and sends nothing, which an
/// idle watch without progress notifications cannot tell from a quiet prefix.
///
/// Once the watch has received nothing for ``interval`` (counted from the last thing it
/// received, so a member frozen just after an event is asked as soon as one after a long
/// silence), the member is sent a serializable range of one key, counting only (answered from
/// the member's own copy, without its leader); when no answer comes within the request
/// timeout, the watch's socket is shut down, its connection ends as lost, and the watcher
/// moves on to the next endpoint. Any answer, even a
/// refusal, shows the member alive. So a frozen member is left within ``interval`` plus one
/// request timeout (10 s by default), at the cost of one small request per silent interval.
///
/// Thread-safety: `Sendable`; its state is kept under a lock. The socket is shut down only
/// while the watch holds it: ``stop()`` forgets it under the same lock before the watch closes
/// it, so a descriptor number reused afterwards is never touched.
final class WatchProbe: Sendable {
    /// Seconds of silence before the member is asked.
    static let interval: TimeInterval = 5

    private struct State {
        /// The watch's socket, while the watch runs.
        var socket: Int32?
        /// When the watch last received something, or the probe started.
        var lastHeard = DispatchTime.now()
    }
    private let state: Lock<State>
    private let stopped = DispatchSemaphore(value: 0)

    private init(socket: Int32) {
        state = Lock(State(socket: socket))
    }

    /// Starts probing `endpoint`, whose watch reads `socket`, on a thread of its own.
    static func start(client: EtcdClient, endpoint: URL, socket: Int32) -> WatchProbe {
        let probe = WatchProbe(socket: socket)
        let key = Gateway.base64(client.configuration.prefix + "/")
        let thread = Thread {
            let body: [String: Any] = ["key": key, "serializable": true, "count_only": true]
            var deadline = DispatchTime.now() + interval
            while probe.stopped.wait(timeout: deadline) == .timedOut {
                // Something heard meanwhile: wait until the silence since then is as long.
                deadline = probe.state.withLock { $0.lastHeard } + interval
                guard deadline <= .now() else { continue }
                deadline = .now() + interval
                do {
                    _ = try client.send("v3/kv/range", body, to: endpoint)
                } catch EtcdClient.Failure.noAnswer, EtcdClient.Failure.unreachable {
                    probe.state.withLock { state in
                        if let socket = state.socket { shutdown(socket, Int32(SHUT_RDWR)) }
                    }
                    return
                } catch {
                    // An answer: the member is alive.
                }
            }
        }
        thread.name = "EtcdStore watch probe"
        thread.start()
        return probe
    }

    /// Records that the watch received something.
    func heard() {
        let now = DispatchTime.now()
        state.withLock { $0.lastHeard = now }
    }

    /// Stops probing; called before the watch closes its socket.
    func stop() {
        state.withLock { $0.socket = nil }
        stopped.signal()
    }
}
