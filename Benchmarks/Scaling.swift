import Foundation
import StoredSettings
import StoredSettingsTestSupport

/// FileStore write, open and read at growing file sizes, and the memory figures.
func runScaling(_ bench: Bench) throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }
    let sizes = [10, 100, 1_000, 10_000]
    for count in sizes {
        var values = sampleValues(count: count - 1)
        values[flagKey] = .bool(false)
        let url = folder.file("scale-\(count).json")
        try StoredValueJSON.data(from: .dictionary(values)).write(to: url)
        bench.progress("scaling at \(count) keys")

        let store = try FileStore(url: url)
        let flag = Stored(flagKey, default: false, store: store)
        var current = false
        bench.addScaling(
            "write (durable)", keys: count,
            try bench.harness.measure(
                Workload("write", iterations: 1) { n in
                    for _ in 0..<n {
                        current.toggle()
                        try flag.save(current)
                    }
                }, slow: true))
        bench.addScaling(
            "open", keys: count,
            try bench.harness.measure(
                Workload("open") { n in
                    for _ in 0..<n { blackHole(try FileStore(url: url)) }
                }, slow: true))
        let tree = StoredValue.dictionary(values)
        bench.addScaling(
            "JSON serialization (part of write)", keys: count,
            try bench.harness.measure(
                Workload("serialize") { n in
                    for _ in 0..<n { blackHole(try StoredValueJSON.data(from: tree)) }
                }, slow: true))
        bench.addScaling(
            "@Stored<Bool> read", keys: count, perKey: false, try bench.harness.measure(storedBoolRead("read", flag)))
    }
    try runInPlaceScaling(bench)
    if !bench.json { printScaling(bench.report.scaling) }
}

/// The size of the wrapper, and what a 10,000-key FileStore keeps in memory.
func runMemory(_ bench: Bench) throws {
    bench.addMemory(
        "MemoryLayout<Stored<Bool>>.size", bytes: MemoryLayout<Stored<Bool>>.size,
        note: "key, store and a reference to the shared part")
    bench.addMemory("its shared part, Stored<Bool>", bytes: Stored<Bool>.sharedSettingSize, note: "once per setting")
    bench.addMemory("MemoryLayout<Stored<Profile>>.size", bytes: MemoryLayout<Stored<Profile>>.size)
    bench.addMemory(
        "its shared part, Stored<Profile>", bytes: Stored<Profile>.sharedSettingSize, note: "once per setting")

    let settingsGrowth = try probeGrowth(["--settings-probe"])
    bench.addMemory(
        "10,000 Stored<Int> on one InMemoryStore: resident growth", bytes: settingsGrowth,
        note: "\(settingsGrowth / 10_000) B per setting (the keys made beforehand)")

    let folder = try ScratchFolder()
    defer { folder.remove() }
    let url = folder.file("memory.json")
    try sampleFile(count: 10_000).write(to: url)
    let fileSize = (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue ?? 0
    bench.addMemory("settings file, 10,000 keys", bytes: fileSize)

    let growth = try residentGrowthOfOpening(url)
    bench.addMemory(
        "FileStore of it: resident growth", bytes: growth,
        note: String(
            format: "%.1f× the file (/proc/self/statm of a fresh process)", Double(growth) / Double(max(fileSize, 1)))
    )
    if !bench.json { printMemory(bench.report.memory) }
}

/// How much the resident memory of a fresh process grows when it opens a FileStore on `url`:
/// this executable run with `--memory-probe`, so nothing freed earlier is reused.
func residentGrowthOfOpening(_ url: URL) throws -> Int {
    try probeGrowth(["--memory-probe", url.path])
}

/// The number a fresh run of this executable with `arguments` prints: a resident growth.
func probeGrowth(_ arguments: [String]) throws -> Int {
    let process = Process()
    process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: "/proc/self/exe")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0,
        let growth = Int(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    else {
        throw BenchmarkError("the memory probe failed (status \(process.terminationStatus))")
    }
    return growth
}

/// The child side of ``residentGrowthOfOpening(_:)``: prints the growth in bytes.
func memoryProbe(path: String) throws {
    let url = URL(fileURLWithPath: path)
    _ = try Data(contentsOf: url) // Foundation's file machinery loaded before measuring
    let before = residentBytes()
    let store = try FileStore(url: url)
    let after = residentBytes()
    withExtendedLifetime(store) {}
    print(after - before)
}

/// The child side of the 10,000-settings figure: the resident growth of creating 10,000
/// `Stored<Int>` with distinct keys on one store (each read once, as an app does).
func settingsProbe() -> Int {
    let store = InMemoryStore()
    let keys = (0..<10_000).map { "setting\($0)" }
    blackHole(Stored("warmUp", default: 0, store: store).wrappedValue)
    let before = residentBytes()
    let settings = keys.map { Stored($0, default: 0, store: store) }
    var sum = 0
    for setting in settings { sum &+= setting.wrappedValue }
    let after = residentBytes()
    withExtendedLifetime(settings) { blackHole(sum) }
    return after - before
}
