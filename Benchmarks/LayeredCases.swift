import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport

/// A structured setting for the field-override case.
struct BenchLayout: Codable, Equatable, Sendable, StoredValueConvertible {
    var wrapColumn: Int
    var indent: Int
}

/// Reads through the layers of a command-line tool (the command line with field overrides,
/// the environment, the file), each against the same read of the file alone.
func runLayeredCases(_ bench: Bench) throws {
    let layout = try BenchLayout(wrapColumn: 60, indent: 2).storedValue()
    let file = InMemoryStore([flagKey: .bool(true), "layout": layout, "plainLayout": layout])
    let commandLine = CommandLineStore(
        arguments: ["--set", "theme=dark", "--set", "layout.indent=4"],
        options: [
            .init(name: "layout", key: "layout", shape: .structure(fields: ["wrapColumn": .other, "indent": .other]))
        ])
    let environment = EnvironmentStore(prefix: "BENCH", environment: ["BENCH_PAGE_SIZE": "3"])
    let layered = LayeredStore([commandLine, environment, file], writingTo: file)

    try bench.compare(
        storedBoolRead(
            "@Stored<Bool> read, LayeredStore (command line, environment, file)",
            Stored(flagKey, default: false, store: layered)),
        against: storedBoolRead(
            "@Stored<Bool> read, its file layer alone", Stored(flagKey, default: false, store: file)),
        target: nil, note: "the layers' cost"
    )

    try bench.compare(
        storedBoolRead(
            "@Stored<Bool> read, LayeredStore (command line, environment, file), against no command line",
            Stored(flagKey, default: false, store: layered)),
        against: storedBoolRead(
            "@Stored<Bool> read, LayeredStore (environment, file)",
            Stored(flagKey, default: false, store: LayeredStore([environment, file], writingTo: file))),
        target: nil, note: "the command line's layer, field overrides included"
    )

    let plain = Stored("plainLayout", default: BenchLayout(wrapColumn: 72, indent: 2), store: layered)
    let overridden = Stored("layout", default: BenchLayout(wrapColumn: 72, indent: 2), store: layered)
    guard overridden.wrappedValue == BenchLayout(wrapColumn: 60, indent: 4) else {
        throw BenchmarkError("the field override is not applied")
    }
    try bench.compare(
        Workload("@Stored<Layout> read, one field overridden on the command line") { n in
            var sum = 0
            for _ in 0..<n { sum &+= overridden.wrappedValue.indent }
            blackHole(sum)
        },
        against: Workload("@Stored<Layout> read through the same layers, no field overridden") { n in
            var sum = 0
            for _ in 0..<n { sum &+= plain.wrappedValue.indent }
            blackHole(sum)
        },
        target: 2.0
    )
}
