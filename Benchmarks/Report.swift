import Foundation

/// One case measured against its baseline in the same run.
struct ComparisonResult: Encodable {
    enum Status: String, Encodable {
        case met, missed
        /// No target: the ratio is reported for scale.
        case reported
        /// The case cannot run in this build (an API it needs is missing).
        case unavailable = "not available"
    }

    var name: String
    var baseline: String
    /// Median nanoseconds per operation of the case; `nil` when unavailable.
    var nanoseconds: Double?
    var baselineNanoseconds: Double?
    /// Interquartile ranges of the samples, nanoseconds per operation.
    var spread: [Double]?
    var baselineSpread: [Double]?
    /// Samples taken of each side.
    var samples: Int?
    /// The median of the ratios of the case and baseline samples taken back to back.
    var ratio: Double?
    /// The largest ratio that meets the target; `nil` when only reported.
    var target: Double?
    /// The most nanoseconds per operation that meet the target, for cases held to a time.
    var limit: Double?
    var status: Status
    var note: String?

    init(
        name: String, baseline: String, subject: Timing, baselineTiming: Timing, ratio: Double,
        target: Double?, limit: Double? = nil, note: String? = nil
    ) {
        self.name = name
        self.baseline = baseline
        self.nanoseconds = subject.median
        self.baselineNanoseconds = baselineTiming.median
        self.spread = [subject.lowerQuartile, subject.upperQuartile]
        self.baselineSpread = [baselineTiming.lowerQuartile, baselineTiming.upperQuartile]
        self.samples = subject.samples
        self.ratio = ratio
        self.target = target
        self.limit = limit
        if target == nil, limit == nil {
            status = .reported
        } else {
            let met = ratio <= (target ?? .infinity) && subject.median <= (limit ?? .infinity)
            status = met ? .met : .missed
        }
        self.note = note
    }

    init(unavailable name: String, baseline: String, target: Double?, note: String) {
        self.name = name
        self.baseline = baseline
        self.target = target
        self.status = .unavailable
        self.note = note
    }
}

/// One row of the scaling table.
struct ScalingResult: Encodable {
    var operation: String
    var keys: Int
    var nanoseconds: Double
    /// Nanoseconds divided by the key count (how writes and opens grow); `nil` for reads.
    var nanosecondsPerKey: Double?
}

/// How long something takes to arrive, as percentiles of its samples.
struct LatencyResult: Encodable {
    enum Status: String, Encodable { case met, missed }

    var name: String
    var samples: Int
    /// Nanoseconds.
    var median: Double
    var percentile99: Double
    var maximum: Double
    /// The largest median that meets the target, nanoseconds.
    var target: Double
    var status: Status

    init(name: String, samples: [Double], target: Double) {
        let sorted = samples.sorted()
        self.name = name
        self.samples = sorted.count
        median = sorted.isEmpty ? .nan : sorted[sorted.count / 2]
        percentile99 =
            sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int((Double(sorted.count) * 0.99).rounded(.up)) - 1)]
        maximum = sorted.last ?? .nan
        self.target = target
        status = median <= target ? .met : .missed
    }
}

/// One memory figure.
struct MemoryResult: Encodable {
    var name: String
    var bytes: Int
    var note: String?
}

/// Everything one run measured.
struct Report: Encodable {
    var machine: String
    var mode: String
    var comparisons: [ComparisonResult] = []
    var scaling: [ScalingResult] = []
    var memory: [MemoryResult] = []
    var latency: [LatencyResult] = []
}

// MARK: - Text output

/// `12.3 ns`, `4.56 µs`, `7.89 ms` for a duration in nanoseconds.
func formatDuration(_ nanoseconds: Double?) -> String {
    guard let nanoseconds, nanoseconds.isFinite else { return "–" }
    switch nanoseconds {
    case ..<1_000: return String(format: "%.1f ns", nanoseconds)
    case ..<1_000_000: return String(format: "%.2f µs", nanoseconds / 1_000)
    default: return String(format: "%.2f ms", nanoseconds / 1_000_000)
    }
}

/// `1,234,567 B` style byte counts, in KiB/MiB when large.
func formatBytes(_ bytes: Int) -> String {
    switch bytes {
    case ..<10_240: return "\(bytes) B"
    case ..<10_485_760: return String(format: "%.1f KiB", Double(bytes) / 1_024)
    default: return String(format: "%.1f MiB", Double(bytes) / 1_048_576)
    }
}

/// `text` as Markdown code when it holds `<`, so generic types survive rendering.
private func code(_ text: String) -> String {
    text.contains("<") ? "`\(text)`" : text
}

/// Prints one comparison as soon as it is measured, as a Markdown table row.
func printComparisonHeader() {
    print("| case | median | baseline | baseline median | ratio | target | |")
    print("|---|---:|---|---:|---:|---:|---|")
}

func printComparison(_ result: ComparisonResult) {
    let ratio = result.ratio.map { String(format: "%.2f×", $0) } ?? "–"
    let target =
        result.target.map { String(format: "≤ %.1f×", $0) } ?? result.limit.map { "≤ \(formatDuration($0))" }
        ?? "report"
    var status = result.status.rawValue
    if let note = result.note { status += " (\(note))" }
    print(
        "| \(code(result.name)) | \(formatDuration(result.nanoseconds)) | \(code(result.baseline)) | \(formatDuration(result.baselineNanoseconds)) | \(ratio) | \(target) | \(status) |"
    )
    fflush(nil)
}

func printScaling(_ rows: [ScalingResult]) {
    print("")
    print("| operation (FileStore unless named) | keys or elements | median | per key or element |")
    print("|---|---:|---:|---:|")
    for row in rows {
        print(
            "| \(code(row.operation)) | \(row.keys) | \(formatDuration(row.nanoseconds)) | \(row.nanosecondsPerKey.map { formatDuration($0) } ?? "–") |"
        )
    }
}

func printLatency(_ result: LatencyResult) {
    print("")
    print("| latency | samples | median | p99 | max | target (median) | |")
    print("|---|---:|---:|---:|---:|---:|---|")
    print(
        "| \(result.name) | \(result.samples) | \(formatDuration(result.median)) | \(formatDuration(result.percentile99)) | \(formatDuration(result.maximum)) | ≤ \(formatDuration(result.target)) | \(result.status.rawValue) |"
    )
    fflush(nil)
}

func printMemory(_ rows: [MemoryResult]) {
    print("")
    print("| memory | size | |")
    print("|---|---:|---|")
    for row in rows {
        let size = row.name.hasPrefix("MemoryLayout") ? "\(row.bytes) B" : formatBytes(row.bytes)
        print("| \(code(row.name)) | \(size) | \(row.note ?? "") |")
    }
}

/// The report as pretty-printed JSON with sorted keys.
func jsonText(_ report: Report) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
        positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return String(decoding: try encoder.encode(report), as: UTF8.self)
}

/// `nproc` and the CPU model, in one line.
func machineDescription() -> String {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    var model = "unknown CPU"
    if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
        let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
        let colon = line.firstIndex(of: ":")
    {
        model = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
    #if os(Linux)
    let system = "Linux"
    #else
    let system = "macOS"
    #endif
    return "\(cores) cores, \(model), \(system), Swift release build"
}
