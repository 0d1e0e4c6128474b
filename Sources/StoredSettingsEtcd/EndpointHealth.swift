/// What a store has learned of each endpoint, which orders the endpoints for its next request.
///
/// An endpoint answered (and has not failed since), is unknown (never asked, or asked and not
/// yet answered), or failed (could not be reached, gave no answer, or had no leader). Requests
/// go to the one that answered last, then the others that answered, then the unknown ones in
/// the configured order, then the failed ones, the one that failed longest ago first, so that a
/// store whose every endpoint failed still asks each in turn.
///
/// Thread-safety: a value type; ``EtcdClient`` keeps it under its lock.
struct EndpointHealth {
    /// How many endpoints there are.
    let count: Int
    /// The endpoint that answered last, while it has not failed since.
    private(set) var lastAnswered: Int?
    private var answered: Set<Int> = []
    /// Each failed endpoint's failure number: a later failure has a larger one.
    private var failures: [Int: Int] = [:]
    private var failuresSoFar = 0

    init(count: Int) {
        self.count = count
    }

    /// `index` answered; `leading` makes it the one asked first (a race's answers do not: the
    /// endpoints that answered one are asked in the configured order).
    mutating func answered(_ index: Int, leading: Bool = true) {
        failures[index] = nil
        answered.insert(index)
        if leading { lastAnswered = index }
    }

    /// Whether some endpoint answered and has not failed since.
    var hasAnswered: Bool { !answered.isEmpty }

    /// `index` could not be reached, gave no answer, or had no leader.
    mutating func failed(_ index: Int) {
        failuresSoFar += 1
        failures[index] = failuresSoFar
        answered.remove(index)
        if lastAnswered == index { lastAnswered = nil }
    }

    /// Whether `index` failed and has not answered since.
    func hasFailed(_ index: Int) -> Bool { failures[index] != nil }

    /// Every endpoint index, in the order the next request asks them.
    var order: [Int] {
        let healthy = (0..<count).filter { answered.contains($0) && $0 != lastAnswered }
        let unknown = (0..<count).filter { !answered.contains($0) && failures[$0] == nil }
        let failed = failures.sorted { $0.value < $1.value }.map(\.key)
        return (lastAnswered.map { [$0] } ?? []) + healthy + unknown + failed
    }
}
