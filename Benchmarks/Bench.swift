import Foundation

/// The state of one run: the harness, what has been measured, and how to print it.
final class Bench {
    let harness: Harness
    let json: Bool
    /// When set, only cases whose name contains it run (for profiling one case).
    let only: String?
    private(set) var report: Report

    init(options: RunOptions, json: Bool, mode: String, only: String? = nil) {
        self.harness = Harness(options: options)
        self.json = json
        self.only = only
        self.report = Report(machine: machineDescription(), mode: mode)
    }

    var quick: Bool { report.mode == "quick" }

    /// Measures `subject` against `baseline`, records the result and prints it; `limit` is a
    /// target in nanoseconds per operation of `subject`, for cases held to a time, not a ratio.
    func compare(
        _ subject: Workload, against baseline: Workload, target: Double?, limit: Double? = nil, slow: Bool = false,
        note: String? = nil
    ) throws {
        if let only, !subject.name.contains(only) { return }
        progress(subject.name)
        let (subjectTiming, baselineTiming, ratio) = try harness.compare(subject, baseline, slow: slow)
        add(
            ComparisonResult(
                name: subject.name, baseline: baseline.name, subject: subjectTiming,
                baselineTiming: baselineTiming, ratio: ratio, target: target, limit: limit, note: note
            ))
    }

    /// Records a case that cannot run in this build.
    func unavailable(_ name: String, baseline: String, target: Double?, reason: String) {
        add(ComparisonResult(unavailable: name, baseline: baseline, target: target, note: reason))
    }

    func add(_ result: ComparisonResult) {
        report.comparisons.append(result)
        if !json { printComparison(result) }
    }

    func addScaling(_ operation: String, keys: Int, perKey: Bool = true, _ timing: Timing) {
        report.scaling.append(
            ScalingResult(
                operation: operation, keys: keys, nanoseconds: timing.median,
                nanosecondsPerKey: perKey ? timing.median / Double(keys) : nil
            ))
    }

    func addLatency(_ result: LatencyResult) {
        report.latency.append(result)
        if !json { printLatency(result) }
    }

    func addMemory(_ name: String, bytes: Int, note: String? = nil) {
        report.memory.append(MemoryResult(name: name, bytes: bytes, note: note))
    }

    /// A progress line on standard error (JSON mode keeps standard output clean).
    func progress(_ text: String) {
        guard json else { return }
        writeToStandardError("measuring \(text)\n")
    }
}
