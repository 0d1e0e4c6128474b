import Foundation

extension EtcdClient {
    /// How long a put, delete or transaction waits for its answer before it asks its member
    /// whether the leader changed, and how often it asks after that, in seconds.
    static let leaderCheckDelay: TimeInterval = 0.5
    static let leaderCheckInterval: TimeInterval = 0.25

    /// What a write sent to `endpoint` asks while no answer has begun: after
    /// ``leaderCheckDelay``, every ``leaderCheckInterval``, the member's status
    /// (`/v3/maintenance/status`). A leader of a raft term newer than any answer before the
    /// request carried, seen on two asks in a row, ends the wait.
    ///
    /// Why: a follower forwards a proposal to its leader; when that leader dies first, the
    /// proposal is lost and the follower answers only after etcd's own request timeout (7 s
    /// with the default election timeout), while the cluster writes again as soon as it has a new
    /// leader. Had the proposal reached the new leader's log, that leader commits it with its
    /// first entry, before the second ask; so the wait ends as "may or may not have been
    /// committed", about when `etcdctl` would start over, not a request timeout later.
    func leaderChangeCheck(for endpoint: URL) -> PlainHTTP.WaitCheck {
        let term = state.withLock { $0.term }
        let sent = Date()
        var sightings = 0
        return PlainHTTP.WaitCheck(interval: Self.leaderCheckInterval) { [self] in
            guard -sent.timeIntervalSinceNow >= Self.leaderCheckDelay else { return nil }
            guard let (now, hasLeader) = status(of: endpoint), now > term, hasLeader else {
                sightings = 0
                return nil
            }
            sightings += 1
            guard sightings >= 2 else { return nil }
            return
                "no answer, and the member has a new leader since the request was sent (raft term \(term), now \(now))"
        }
    }

    /// The member's raft term and whether it knows a leader; `nil` without an answer within one
    /// ``leaderCheckInterval`` several times over.
    private func status(of endpoint: URL) -> (term: Int64, hasLeader: Bool)? {
        guard
            let response = try? PlainHTTP.post(
                "v3/maintenance/status", to: endpoint, headers: headers, body: Data("{}".utf8),
                timeout: 4 * Self.leaderCheckInterval, through: connections),
            let answer = try? Self.decode(status: response.status, response.body)
        else { return nil }
        // The leader's member ID, a uint64 as text (often past Int64's range), omitted when 0.
        let leader = answer["leader"].map { "\($0)" }
        return (Gateway.raftTerm(of: answer), leader != nil && leader != "0")
    }

    /// Keeps the newest raft term an answer carried: a term newer than it means an election.
    func noteTerm(of answer: [String: Any]) {
        let term = Gateway.raftTerm(of: answer)
        state.withLock { $0.term = max($0.term, term) }
    }
}
