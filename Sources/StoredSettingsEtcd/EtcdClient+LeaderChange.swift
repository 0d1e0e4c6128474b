import Foundation

extension EtcdClient {
    /// How long a put, delete or transaction waits for its answer before it asks its member
    /// whether the leader changed, and how often it asks after that, in seconds.
    static let leaderCheckDelay: TimeInterval = 0.25
    static let leaderCheckInterval: TimeInterval = 0.25

    /// What a write sent to `endpoint` asks while no answer has begun: after
    /// ``leaderCheckDelay``, every ``leaderCheckInterval``, the member's status
    /// (`/v3/maintenance/status`). The first answer's raft term is the baseline; a leader of a
    /// newer term, seen on two asks in a row, ends the wait.
    ///
    /// Why: a follower forwards a proposal to its leader; when that leader dies first, the
    /// proposal is lost and the follower answers only after etcd's own request timeout (7 s
    /// with the default election timeout), while the cluster writes again as soon as it has a new
    /// leader. Had the proposal reached the new leader's log, that leader commits it with its
    /// first entry, before the second ask; so the wait ends as "may or may not have been
    /// committed", about when `etcdctl` would start over, not a request timeout later. The
    /// baseline is the member's own term during the wait, never one an earlier answer carried:
    /// an election the store did not see (a leader handed over in a rolling restart) must not
    /// end a write that is merely slow.
    func leaderChangeCheck(for endpoint: URL) -> PlainHTTP.WaitCheck {
        let sent = Date()
        var baseline: Int64?
        var sightings = 0
        return PlainHTTP.WaitCheck(interval: Self.leaderCheckInterval) { [self] in
            guard -sent.timeIntervalSinceNow >= Self.leaderCheckDelay,
                let (term, hasLeader) = status(of: endpoint)
            else {
                sightings = 0
                return nil
            }
            guard let first = baseline else {
                baseline = term
                return nil
            }
            guard term > first, hasLeader else {
                sightings = 0
                return nil
            }
            sightings += 1
            guard sightings >= 2 else { return nil }
            return
                "no answer, and the member has had a new leader since it was first asked (raft term \(first), now \(term))"
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
}
