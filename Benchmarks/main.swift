import Foundation

// stored-benchmarks: every hot path of StoredSettings measured against a baseline in the same
// run. Prints Markdown tables (or JSON with --json); exits non-zero only on a real error, never
// because a target is missed.

let usage = """
    usage: stored-benchmarks [--quick] [--json] [--only TEXT]
      --quick      a few seconds in all, for a CI smoke run (fewer, shorter samples)
      --json       print the results as JSON on standard output (progress on standard error)
      --only TEXT  run only the cases whose name contains TEXT (to profile one case); "scaling"
                   runs the file-size table alone, "memory" the memory figures
    """

var quick = false
var json = false
let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count == 2, arguments[0] == "--memory-probe" {
    do {
        try memoryProbe(path: arguments[1])
        exit(0)
    } catch {
        writeToStandardError("stored-benchmarks: memory probe: \(error)\n")
        exit(1)
    }
}
if arguments == ["--settings-probe"] {
    print(settingsProbe())
    exit(0)
}
if arguments.count == 2, arguments[0] == "--latency-writer" {
    do {
        try latencyWriter(path: arguments[1])
        exit(0)
    } catch {
        writeToStandardError("stored-benchmarks: latency writer: \(error)\n")
        exit(1)
    }
}
if arguments.count == 2, arguments[0] == "--hold-lock" {
    do {
        try holdLock(path: arguments[1])
        exit(0)
    } catch {
        writeToStandardError("stored-benchmarks: lock holder: \(error)\n")
        exit(1)
    }
}
if arguments.count == 2, arguments[0] == "--etcd-latency-writer" {
    do {
        try etcdLatencyWriter(address: arguments[1])
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("stored-benchmarks: etcd latency writer: \(error)\n".utf8))
        exit(1)
    }
}
var only: String?
var remaining = arguments[...]
while let argument = remaining.popFirst() {
    switch argument {
    case "--only":
        guard let text = remaining.popFirst() else {
            writeToStandardError("stored-benchmarks: --only needs a text\n\(usage)\n")
            exit(64)
        }
        only = text
    case "--quick": quick = true
    case "--json": json = true
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        writeToStandardError("stored-benchmarks: unknown option '\(argument)'\n\(usage)\n")
        exit(64)
    }
}

let bench = Bench(options: quick ? .quick : .full, json: json, mode: quick ? "quick" : "full", only: only)
do {
    if !json {
        print("Machine: \(bench.report.machine); \(bench.report.mode) run")
        print("")
        printComparisonHeader()
    }
    try runReadCases(bench)
    try runLayeredCases(bench)
    try runWriteCases(bench)
    try runRoundTwoCases(bench)
    try runStartUpCases(bench)
    try runDurableCases(bench)
    try runLatency(bench)
    try runMainThreadSetter(bench)
    try runEtcdCases(bench)
    try runLeaderKillCase(bench)
    try runFrozenMemberCase(bench)
    if only == nil || only == "scaling" { try runScaling(bench) }
    if only == nil || only == "memory" { try runMemory(bench) }
    if json {
        print(try jsonText(bench.report))
    } else {
        let scored = bench.report.comparisons.filter {
            ($0.target != nil || $0.limit != nil) && $0.status != .unavailable
        }
        let met = scored.filter { $0.status == .met }.count + bench.report.latency.filter { $0.status == .met }.count
        print("")
        print(
            "\(met) of \(scored.count + bench.report.latency.count) targets met; each ratio is the median of case ÷ baseline over samples taken back to back in this run."
        )
    }
} catch {
    writeToStandardError("stored-benchmarks: error: \(error)\n")
    exit(1)
}
