#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How long and how often to measure: the full run, or `--quick` for a smoke test.
struct RunOptions {
    /// Target duration of one sample, in nanoseconds.
    var sampleNanoseconds: UInt64
    /// Samples per side (case and baseline each).
    var samples: Int
    /// Samples per side for operations that take milliseconds (durable writes, opens).
    var slowSamples: Int
    /// Warm-up duration per side, in nanoseconds.
    var warmUpNanoseconds: UInt64

    static let full = RunOptions(
        sampleNanoseconds: 4_000_000, samples: 61, slowSamples: 31, warmUpNanoseconds: 60_000_000)
    static let quick = RunOptions(sampleNanoseconds: 500_000, samples: 9, slowSamples: 5, warmUpNanoseconds: 5_000_000)
}

/// Something to time: `run(n)` performs the operation `n` times.
///
/// The closure does the loop itself, so the per-operation figure does not include a closure
/// call; it must feed each result to ``blackHole(_:)`` (or fold it into one value passed there)
/// so the optimizer cannot remove the work.
struct Workload {
    var name: String
    var run: (Int) throws -> Void
    /// Fixed iterations per sample for slow operations; `nil` calibrates to the sample time.
    var fixedIterations: Int?

    init(_ name: String, iterations: Int? = nil, _ run: @escaping (Int) throws -> Void) {
        self.name = name
        self.fixedIterations = iterations
        self.run = run
    }
}

/// The median cost of one operation and the spread of the samples, in nanoseconds.
struct Timing {
    var median: Double
    var lowerQuartile: Double
    var upperQuartile: Double
    var samples: Int
    var iterationsPerSample: Int

    init(_ values: [Double], iterationsPerSample: Int) {
        let sorted = values.sorted()
        func quantile(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return .nan }
            let position = q * Double(sorted.count - 1)
            let low = Int(position.rounded(.down))
            let high = Int(position.rounded(.up))
            return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
        }
        median = quantile(0.5)
        lowerQuartile = quantile(0.25)
        upperQuartile = quantile(0.75)
        samples = sorted.count
        self.iterationsPerSample = iterationsPerSample
    }
}

/// Monotonic time in nanoseconds (`clock_gettime(CLOCK_MONOTONIC)`).
@inline(__always)
func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Keeps a value alive so the optimizer cannot drop the computation that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// Measures workloads: warm-up, calibration, then interleaved samples.
struct Harness {
    var options: RunOptions

    /// The nanoseconds per operation of one sample of `iterations` runs.
    private func sample(_ workload: Workload, iterations: Int) throws -> Double {
        let start = now()
        try workload.run(iterations)
        let elapsed = now() - start
        return Double(elapsed) / Double(iterations)
    }

    /// Runs `workload` for the warm-up time and returns how many iterations fill one sample.
    private func calibrate(_ workload: Workload) throws -> Int {
        if let fixed = workload.fixedIterations {
            let deadline = now() + options.warmUpNanoseconds / 4
            repeat { try workload.run(fixed) } while now() < deadline
            return fixed
        }
        var iterations = 1
        let deadline = now() + options.warmUpNanoseconds
        var perOperation = 1.0
        while true {
            perOperation = try sample(workload, iterations: iterations)
            if perOperation * Double(iterations) >= Double(options.sampleNanoseconds) / 8 || iterations >= 1 << 28 {
                break
            }
            iterations *= 2
        }
        while now() < deadline { perOperation = min(perOperation, try sample(workload, iterations: iterations)) }
        return max(1, Int(Double(options.sampleNanoseconds) / max(perOperation, 0.1)))
    }

    /// Times `subject` and `baseline` with samples interleaved (ABBA order), so drift in the
    /// machine's load affects both sides alike.
    ///
    /// - Returns: Both timings, and the median of the ratios of each round's two samples (taken
    ///   back to back, so under the same load): the figure the targets are checked against.
    func compare(_ subject: Workload, _ baseline: Workload, slow: Bool = false) throws -> (
        Timing, Timing, ratio: Double
    ) {
        let subjectIterations = try calibrate(subject)
        let baselineIterations = try calibrate(baseline)
        let count = slow ? options.slowSamples : options.samples
        var subjectSamples: [Double] = []
        var baselineSamples: [Double] = []
        subjectSamples.reserveCapacity(count)
        baselineSamples.reserveCapacity(count)
        for round in 0..<count {
            if round % 2 == 0 {
                subjectSamples.append(try sample(subject, iterations: subjectIterations))
                baselineSamples.append(try sample(baseline, iterations: baselineIterations))
            } else {
                baselineSamples.append(try sample(baseline, iterations: baselineIterations))
                subjectSamples.append(try sample(subject, iterations: subjectIterations))
            }
        }
        let ratios = zip(subjectSamples, baselineSamples).map { $0 / $1 }
        return (
            Timing(subjectSamples, iterationsPerSample: subjectIterations),
            Timing(baselineSamples, iterationsPerSample: baselineIterations),
            Timing(ratios, iterationsPerSample: 1).median
        )
    }

    /// Times one workload alone (for the scaling table).
    func measure(_ workload: Workload, slow: Bool = false) throws -> Timing {
        let iterations = try calibrate(workload)
        let count = slow ? options.slowSamples : options.samples
        var samples: [Double] = []
        for _ in 0..<count { samples.append(try sample(workload, iterations: iterations)) }
        return Timing(samples, iterationsPerSample: iterations)
    }
}
