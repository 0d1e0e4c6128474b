import Foundation
import StoredSettings

extension EtcdClient {
    /// Sends a read to every endpoint at once, each on a thread of its own, and returns the
    /// first answer: a process that opens a store while the member listed first is frozen
    /// waits for the fastest member, not for a request timeout.
    ///
    /// Only for requests that change nothing. Every endpoint that answers is asked before one
    /// not heard from; each records its health when its answer comes (a frozen member's
    /// request stays out until its timeout, changing nothing). An endpoint refusing as
    /// unavailable is asked again until the race is settled or one request timeout has passed:
    /// when the frozen member is the leader, the others answer once they have elected another.
    ///
    /// - Throws: ``Failure/refused(code:message:)`` when the first answer refuses (other than
    ///   unavailable); ``Failure/tls(_:)`` when none answered and one refused the TLS handshake
    ///   (as ``call(_:_:request:unanswered:)``); ``Failure/unreachable(_:)`` naming every
    ///   endpoint when none answered; the `StorageError` of TLS settings that cannot be loaded.
    func race(_ path: String, _ body: [String: Any]) throws -> [String: Any] {
        let bytes = try JSONSerialization.data(withJSONObject: body)
        let endpoints = configuration.endpoints
        let race = Lock(RaceState(problems: Array(repeating: nil, count: endpoints.count)))
        let settled = DispatchSemaphore(value: 0)
        let deadline = Date(timeIntervalSinceNow: configuration.requestTimeout)
        for (index, endpoint) in endpoints.enumerated() {
            Thread.detachNewThread { [self] in
                let outcome = attempt(path, bytes, endpoint, until: deadline) { race.withLock { $0.first != nil } }
                // Settled by the first answer, or by the last failure when every one failed.
                let settles = race.withLock { state -> Bool in
                    guard state.first == nil else { return false }
                    if case .failed(let problem, _, let tls) = outcome {
                        state.problems[index] = (problem, tls)
                        guard state.problems.allSatisfy({ $0 != nil }) else { return false }
                        let problems = state.problems.compactMap { $0 }
                        state.first = .failed(
                            problems.map(\.text).joined(separator: "; "), retry: false,
                            tls: problems.contains { $0.tls })
                    } else {
                        state.first = outcome
                    }
                    return true
                }
                // Recorded before the caller goes on, so its next request asks one that answered
                // (those that did in the configured order) before one not heard from.
                switch outcome {
                case .failed, .unusable: forget(endpoint)
                case .answer, .refusal: remember(endpoint, leading: false)
                }
                if settles { settled.signal() }
            }
        }
        settled.wait()
        switch race.withLock({ $0.first }) {
        case .answer(let status, let data)?: return try Self.decode(status: status, data)
        case .refusal(let code, let message)?: throw Failure.refused(code: code, message: message)
        case .failed(let problems, _, let tls)?: throw tls ? Failure.tls(problems) : Failure.unreachable(problems)
        case .unusable(let error)?: throw error
        case nil: throw Failure.unreachable("no endpoint answered")
        }
    }

    /// What one endpoint of a race came to.
    fileprivate enum RaceOutcome: Sendable {
        /// A status 200 answer, decoded by the caller.
        case answer(status: Int, data: Data)
        /// etcd refused the request with a code other than unavailable (14).
        case refusal(code: Int, message: String)
        /// Not reached, no answer, unavailable (no leader) or a refused TLS handshake: the
        /// problem, naming the endpoint, whether asking again may answer (unavailable), and
        /// whether the handshake was refused.
        case failed(String, retry: Bool, tls: Bool = false)
        /// The TLS settings cannot be loaded: every endpoint would fail the same way.
        case unusable(StorageError)
    }

    fileprivate struct RaceState: Sendable {
        var first: RaceOutcome?
        var problems: [(text: String, tls: Bool)?]
    }

    /// Asks `endpoint`; asks again, after a pause growing from 50 ms to 0.5 s, while it
    /// refuses as unavailable (no leader yet, a read timed out inside etcd), until an answer, the
    /// `deadline`, or `isSettled`: members electing a new leader after the old one froze answer
    /// within an election, and the frozen one not at all.
    private func attempt(_ path: String, _ bytes: Data, _ endpoint: URL, until deadline: Date, isSettled: () -> Bool)
        -> RaceOutcome
    {
        var delay = 0.05
        while true {
            let outcome = attempt(path, bytes, endpoint)
            guard case .failed(_, let retry, _) = outcome, retry, !isSettled(),
                Date(timeIntervalSinceNow: delay) < deadline
            else { return outcome }
            Thread.sleep(forTimeInterval: delay)
            delay = min(delay * 2, 0.5)
        }
    }

    private func attempt(_ path: String, _ bytes: Data, _ endpoint: URL) -> RaceOutcome {
        let name = EtcdStore.Configuration.hostAndPort(endpoint)
        do {
            let (status, data) = try exchange(path, bytes, with: endpoint)
            guard status != 200 else { return .answer(status: status, data: data) }
            _ = try Self.decode(status: status, data)
            return .answer(status: status, data: data)
        } catch Failure.unreachable(let problem), Failure.noAnswer(let problem) {
            return .failed(problem, retry: false)
        } catch Failure.tls(let problem) {
            return .failed(problem, retry: false, tls: true)
        } catch Failure.refused(let code, let message) where code == 14 || Self.isTimeout(message) {
            return .failed("\(name): \(message)", retry: true)
        } catch Failure.refused(let code, let message) {
            return .refusal(code: code, message: message)
        } catch let error as StorageError {
            return .unusable(error)
        } catch {
            return .failed("\(name): \(error)", retry: false)
        }
    }
}
