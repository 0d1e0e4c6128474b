import Foundation

/// Since when the watch has had no connection (`nil` while it has one), and the tasks waiting
/// for it to be lost or regained: they wait on this event, never on a clock.
final class EtcdConnectionState: Sendable {
    private struct State {
        var disconnectedSince: Date?
        var waiters: [(connected: Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Lock(State())

    /// Since when the watch has had no connection; `nil` while it has one.
    var disconnectedSince: Date? { state.withLock { $0.disconnectedSince } }

    /// Records that the watch lost its connection at `since` (a loss already recorded keeps its
    /// first moment) or regained it (`nil`), and resumes the waiters that waited for that.
    func set(_ since: Date?) {
        let ready = state.withLock { state in
            if since == nil || state.disconnectedSince == nil { state.disconnectedSince = since }
            let connected = state.disconnectedSince == nil
            let ready = state.waiters.filter { $0.connected == connected }.map(\.continuation)
            state.waiters.removeAll { $0.connected == connected }
            return ready
        }
        // Outside the lock: a resumed task never runs under it.
        for continuation in ready { continuation.resume() }
    }

    /// Returns once the watch has (`true`) or has lost (`false`) its connection; at once when
    /// it already has.
    func wait(connected: Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let holds = state.withLock { state in
                if (state.disconnectedSince == nil) == connected { return true }
                state.waiters.append((connected, continuation))
                return false
            }
            if holds { continuation.resume() }
        }
    }
}
