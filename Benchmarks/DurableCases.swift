import Foundation
import StoredSettings

/// How many threads write at once, and how many writes each makes, in the concurrent case.
private let concurrentWriters = 8
private let writesPerWriter = 100

/// `writers` threads, each flipping its own key `writesPerWriter` times through `store`
/// (every write commits); returns once every thread is done, with the first error met.
private func writeConcurrently(_ store: FileStore, writers: Int) throws {
    let failures = Lock<[String]>([])
    let done = DispatchGroup()
    for writer in 0..<writers {
        done.enter()
        let thread = Thread {
            defer { done.leave() }
            do {
                for write in 0..<writesPerWriter {
                    try store.setValue(.bool(write % 2 == 0), forKey: "writer-\(writer)")
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        thread.start()
    }
    done.wait()
    if let failure = failures.withLock({ $0.first }) { throw BenchmarkError(failure) }
}

/// A FileStore on a fresh 100-key file in `folder`.
private func hundredKeyStore(
    in folder: ScratchFolder, name: String, skipping skipped: Lock<DurabilityHook.Step?>? = nil
) throws -> FileStore {
    var values = sampleValues(count: 99)
    values[flagKey] = .bool(false)
    let url = folder.file(name)
    try StoredValueJSON.data(from: .dictionary(values)).write(to: url)
    var options = FileStore.Options(changeCheckInterval: nil)
    // Skips the `fsync` of the step `skipped` names (a benchmark-only hook).
    if let skipped { options.durabilityHook = DurabilityHook { step in skipped.withLock { $0 } != step } }
    return try FileStore(url: url, options: options)
}

/// Durable writes: concurrent writers sharing `fsync`s (group commit), and one durable write
/// against UserDefaults with the share of each `fsync` measured by skipping it.
func runDurableCases(_ bench: Bench) throws {
    let folder = try ScratchFolder()
    defer { folder.remove() }

    let concurrent = try hundredKeyStore(in: folder, name: "concurrent.json")
    let single = try hundredKeyStore(in: folder, name: "single.json")
    try bench.compare(
        Workload("durable write, \(concurrentWriters) concurrent writers", iterations: 1) { n in
            for _ in 0..<n { try writeConcurrently(concurrent, writers: concurrentWriters) }
        },
        against: Workload("the same \(concurrentWriters * writesPerWriter) writes from one writer", iterations: 1) {
            n in
            for _ in 0..<n {
                for write in 0..<writesPerWriter {
                    for writer in 0..<concurrentWriters {
                        try single.setValue(.bool(write % 2 == 0), forKey: "writer-\(writer)")
                    }
                }
            }
        },
        target: 1.0, slow: true, note: "total time; group commit shares each fsync"
    )

    let skippedStep = Lock<DurabilityHook.Step?>(nil)
    let store = try hundredKeyStore(in: folder, name: "settings.json", skipping: skippedStep)
    let flag = Stored(flagKey, default: false, store: store)
    var storedFlag = false
    let durableWrite = Workload("durable write, 100 keys", iterations: 1) { n in
        for _ in 0..<n {
            storedFlag.toggle()
            try flag.save(storedFlag)
        }
    }
    // Each fsync's share: the same writes with that fsync skipped.
    let skipped: [(String, DurabilityHook.Step)] = [("file", .fileSync), ("folder", .folderSync)]
    var shares: [String] = []
    if bench.only.map({ durableWrite.name.contains($0) }) ?? true {
        let full = try bench.harness.measure(durableWrite, slow: true).median
        for (name, step) in skipped {
            skippedStep.withLock { $0 = step }
            defer { skippedStep.withLock { $0 = nil } }
            let without = try bench.harness.measure(durableWrite, slow: true).median
            shares.append("\(name) fsync \(Int(((full - without) / full * 100).rounded()))%")
        }
    }

    let suite = try ScratchDefaults()
    defer { suite.remove() }
    for (key, value) in sampleValues(count: 99) {
        suite.defaults.set(try PropertyListValue.object(from: value), forKey: key)
    }
    suite.defaults.synchronize()
    var defaultsFlag = false
    try bench.compare(
        durableWrite,
        against: Workload("UserDefaults set + synchronize() (not crash-safe)", iterations: 1) { n in
            for _ in 0..<n {
                defaultsFlag.toggle()
                suite.defaults.set(defaultsFlag, forKey: flagKey)
                suite.defaults.synchronize()
            }
        },
        target: 1.2, slow: true, note: "both fsyncs kept; share of the write: " + shares.joined(separator: ", ")
    )
}
