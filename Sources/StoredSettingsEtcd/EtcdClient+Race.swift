import Foundation
import StoredSettings

extension EtcdClient {
    /// Sends a read to the endpoints, starting with one chosen at random, and asks the next only
    /// once every one asked has failed or none has answered within a quarter of `timeout` (at
    /// most a quarter of ``EtcdStore/Configuration/connectionTimeout``): a hedged request, each
    /// on a thread of its own; returns the first answer. A process that
    /// opens a store while one member is frozen waits a quarter of the attempt for another, not
    /// for a request timeout, and a fleet opening at once spreads its reads over the members
    /// rather than sending each to all of them.
    ///
    /// Only for requests that change nothing. Each endpoint asked records its health when its
    /// answer comes (a frozen member's request stays out until its timeout, changing nothing).
    /// An endpoint refusing as unavailable is asked again until the race is settled or
    /// `timeout` has passed: when the frozen member is the leader, the others answer once they
    /// have elected another.
    ///
    /// - Parameter timeout: Seconds the race may take, each request included; by default
    ///   ``EtcdStore/Configuration/requestTimeout``.
    /// - Throws: ``Failure/refused(code:message:)`` when the first answer refuses (other than
    ///   unavailable); ``Failure/tls(_:)`` when none answered and every one reached refused the
    ///   TLS handshake (``Problems/isTLS``); ``Failure/unreachable(_:)`` naming every endpoint
    ///   otherwise when none answered; the `StorageError` of TLS settings that cannot be loaded.
    func race(_ path: String, _ body: [String: Any], timeout: TimeInterval? = nil) throws -> [String: Any] {
        let bytes = try JSONSerialization.data(withJSONObject: body)
        let all = orderedEndpoints
        let start = Int.random(in: 0..<all.count)
        let endpoints = Array(all[start...] + all[..<start])
        let race = Lock(RaceState(problems: Array(repeating: nil, count: endpoints.count)))
        // One signal for each endpoint's outcome: a failure lets the next be asked at once.
        let progress = DispatchSemaphore(value: 0)
        let length = timeout ?? configuration.requestTimeout
        let deadline = Date(timeIntervalSinceNow: length)
        let hedgeDelay = min(length, configuration.connectionTimeout) / 4
        for (index, endpoint) in endpoints.enumerated() {
            if index > 0 {
                _ = progress.wait(timeout: .now() + hedgeDelay)
                if race.withLock({ $0.first != nil }) { break }
            }
            Thread.detachNewThread { [self] in
                let outcome = attempt(path, bytes, endpoint, until: deadline) { race.withLock { $0.first != nil } }
                race.withLock { state in
                    guard state.first == nil else { return }
                    if case .failed(let problem, _, let kind) = outcome {
                        state.problems[index] = (problem, kind)
                        guard state.problems.allSatisfy({ $0 != nil }) else { return }
                        let problems = Problems(state.problems.compactMap { $0 })
                        state.first = .failed(problems.text, retry: false, kind: problems.isTLS ? .tls : .other)
                    } else {
                        state.first = outcome
                    }
                }
                // Recorded before the caller goes on, so its next request asks one that answered
                // before one not heard from.
                switch outcome {
                case .failed, .unusable: forget(endpoint)
                case .answer, .refusal: remember(endpoint, leading: false)
                }
                progress.signal()
            }
        }
        // Settled by the first answer, or by the last failure when every one failed.
        while race.withLock({ $0.first == nil }) { progress.wait() }
        switch race.withLock({ $0.first }) {
        case .answer(let status, let data)?: return try Self.decode(status: status, data)
        case .refusal(let code, let message)?: throw Failure.refused(code: code, message: message)
        case .failed(let problems, _, let kind)?:
            throw kind == .tls ? Failure.tls(problems) : Failure.unreachable(problems)
        case .unusable(let error)?: throw error
        case nil: throw Failure.unreachable("no endpoint answered")
        }
    }

    /// How an endpoint failed a read, for the rule of ``Problems/isTLS``.
    enum ProblemKind: Sendable {
        /// Never reached: the connection was refused or the host is unknown.
        case unreached
        /// Reached, and it refused the TLS handshake.
        case tls
        /// Reached, and no usable answer came (no answer in time, no leader).
        case other
    }

    /// The problems of every endpoint asked, none of which answered.
    struct Problems {
        let all: [(text: String, kind: ProblemKind)]

        init(_ all: [(text: String, kind: ProblemKind)]) { self.all = all }

        /// Every problem, named by endpoint.
        var text: String { all.map(\.text).joined(separator: "; ") }

        /// Whether the set-up is refused rather than the cluster out: some endpoint refused the
        /// TLS handshake and every other one reached did too (one not reached cannot say
        /// otherwise). A member reached that gave no answer, or had no leader, makes it an
        /// outage, retried until the connection timeout: the TLS refusal may be that member's
        /// alone.
        var isTLS: Bool {
            all.contains { $0.kind == .tls } && all.allSatisfy { $0.kind != .other }
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
        /// what kind of failure it was.
        case failed(String, retry: Bool, kind: ProblemKind)
        /// The TLS settings cannot be loaded: every endpoint would fail the same way.
        case unusable(StorageError)
    }

    fileprivate struct RaceState: Sendable {
        var first: RaceOutcome?
        var problems: [(text: String, kind: ProblemKind)?]
    }

    /// Asks `endpoint`; asks again, after a pause growing from 50 ms to 0.5 s, while it
    /// refuses as unavailable (no leader yet, a read timed out inside etcd), until an answer, the
    /// `deadline`, or `isSettled`: members electing a new leader after the old one froze answer
    /// within an election, and the frozen one not at all. No request outlives `deadline`.
    private func attempt(_ path: String, _ bytes: Data, _ endpoint: URL, until deadline: Date, isSettled: () -> Bool)
        -> RaceOutcome
    {
        var delay = 0.05
        while true {
            let outcome = attempt(path, bytes, endpoint, timeout: max(deadline.timeIntervalSinceNow, 0.001))
            guard case .failed(_, let retry, _) = outcome, retry, !isSettled(),
                Date(timeIntervalSinceNow: delay) < deadline
            else { return outcome }
            Thread.sleep(forTimeInterval: delay)
            delay = min(delay * 2, 0.5)
        }
    }

    private func attempt(_ path: String, _ bytes: Data, _ endpoint: URL, timeout: TimeInterval) -> RaceOutcome {
        let name = EtcdStore.Configuration.hostAndPort(endpoint)
        do {
            let (status, data) = try exchange(path, bytes, with: endpoint, timeout: timeout)
            guard status != 200 else { return .answer(status: status, data: data) }
            _ = try Self.decode(status: status, data)
            return .answer(status: status, data: data)
        } catch Failure.unreachable(let problem) {
            return .failed(problem, retry: false, kind: .unreached)
        } catch Failure.noAnswer(let problem) {
            return .failed(problem, retry: false, kind: .other)
        } catch Failure.tls(let problem) {
            return .failed(problem, retry: false, kind: .tls)
        } catch Failure.refused(let code, let message) where code == 14 || Self.isTimeout(message) {
            return .failed("\(name): \(message)", retry: true, kind: .other)
        } catch Failure.refused(let code, let message) {
            return .refusal(code: code, message: message)
        } catch let error as StorageError {
            return .unusable(error)
        } catch {
            return .failed("\(name): \(error)", retry: false, kind: .other)
        }
    }
}
