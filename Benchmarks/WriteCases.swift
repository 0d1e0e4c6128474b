import Foundation
import StoredSettings
import StoredSettingsTestSupport

/// Durable writes, opening a large file, and batches.
func runWriteCases(_ bench: Bench) throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }

    // A 100-key settings file; each write flips one Boolean so every write commits.
    var values = sampleValues(count: 99)
    values[flagKey] = .bool(false)
    let fileURL = folder.file("settings.json")
    try StoredValueJSON.data(from: .dictionary(values)).write(to: fileURL)
    let store = try FileStore(url: fileURL)
    let flag = Stored(flagKey, default: false, store: store)
    var storedFlag = false
    let storedWrite = Workload("@Stored<Bool> write, FileStore 100 keys, durable", iterations: 1) { n in
        for _ in 0..<n {
            storedFlag.toggle()
            try flag.save(storedFlag)
        }
    }

    // The same bytes, written by hand.
    values[flagKey] = .bool(true)
    let trueBytes = [UInt8](try StoredValueJSON.data(from: .dictionary(values)))
    values[flagKey] = .bool(false)
    let falseBytes = [UInt8](try StoredValueJSON.data(from: .dictionary(values)))
    let manualFolder = try ScratchFolder()
    defer { manualFolder.remove() }
    let manual = ManualDurableWrite(directory: manualFolder.url, fileName: "settings.json")
    var manualFlag = false
    try bench.compare(
        storedWrite,
        against: Workload("same bytes: temp file + fsync + rename + fsync folder", iterations: 1) { n in
            for _ in 0..<n {
                manualFlag.toggle()
                guard manual.write(manualFlag ? trueBytes : falseBytes) else {
                    throw BenchmarkError("the hand-written durable write failed")
                }
            }
        },
        target: 1.5, slow: true
    )

    // Write-behind: the setter's latency, which returns after the in-memory commit; the
    // background writer's durable writes run beside the timed loop, on the other core.
    let behindURL = folder.file("behind.json")
    try StoredValueJSON.data(from: .dictionary(values)).write(to: behindURL)
    let behindStore = try FileStore(url: behindURL, options: FileStore.Options(writeMode: .writeBehind))
    let behindFlag = Stored(flagKey, default: false, store: behindStore)
    var behindValue = false
    let memoryStore = InMemoryStore(values)
    let memoryFlag100 = Stored(flagKey, default: false, store: memoryStore)
    var memoryValue = false
    try bench.compare(
        Workload("@Stored<Bool> write, FileStore 100 keys, write-behind") { n in
            for _ in 0..<n {
                behindValue.toggle()
                try behindFlag.save(behindValue)
            }
        },
        against: Workload("@Stored<Bool> write, InMemoryStore 100 keys") { n in
            for _ in 0..<n {
                memoryValue.toggle()
                try memoryFlag100.save(memoryValue)
            }
        },
        target: 2.0
    )
    try behindStore.flush()

    // UserDefaults with the same 100 keys, forced to disk, for the UserDefaultsStore case.
    let suite = try ScratchDefaults()
    defer { suite.remove() }
    for (key, value) in values { suite.defaults.set(try PropertyListValue.object(from: value), forKey: key) }
    suite.defaults.synchronize()
    // The durable write against UserDefaults set + synchronize() is the case
    // "durable write, 100 keys" (DurableCases.swift), with each fsync's share.

    // What a committed UserDefaultsStore write costs: on Linux it calls synchronize() so the
    // write survives the process; the baseline is the in-memory set it did before.
    let defaultsStore = UserDefaultsStore(suite.defaults)
    let defaultsFlagSetting = Stored(flagKey, default: false, store: defaultsStore)
    var storeFlag = false
    var memoryFlag = false
    try bench.compare(
        Workload("UserDefaultsStore.setValue, 100 keys (Linux: + synchronize())", iterations: 1) { n in
            for _ in 0..<n {
                storeFlag.toggle()
                try defaultsFlagSetting.save(storeFlag)
            }
        },
        against: Workload("UserDefaults set, in memory only", iterations: 1) { n in
            for _ in 0..<n {
                memoryFlag.toggle()
                suite.defaults.set(memoryFlag, forKey: flagKey)
            }
        },
        target: nil, slow: true, note: "the price of surviving the process on Linux"
    )

    try runOpenCase(bench, folder: folder)
    try runBatchCase(bench, folder: folder)
}

/// Opening a 10,000-key file against parsing its bytes with `JSONSerialization`.
func runOpenCase(_ bench: Bench, folder: ScratchFolder) throws {
    let url = folder.file("large.json")
    let bytes = try sampleFile(count: 10_000)
    try bytes.write(to: url)
    try bench.compare(
        Workload("FileStore open, 10,000-key JSON file") { n in
            for _ in 0..<n { blackHole(try FileStore(url: url)) }
        },
        against: Workload("JSONSerialization.jsonObject, same bytes") { n in
            for _ in 0..<n { blackHole(try JSONSerialization.jsonObject(with: bytes)) }
        },
        target: 1.5, slow: true
    )
}
