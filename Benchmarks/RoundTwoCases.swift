import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport

/// The baseline for in-memory writes: one lock around a `[String: StoredValue]`, set under
/// it (what a `Mutex`-guarded in-memory provider does).
final class LockedDictionaryWriter: @unchecked Sendable {
    // Safe because `values` is only touched between `lock.lock()` and `lock.unlock()`.
    private let lock = NSLock()
    private var values: [String: StoredValue] = [:]

    @inline(never)
    func set(_ value: StoredValue, forKey key: String) {
        lock.lock()
        values[key] = value
        lock.unlock()
    }
}

/// The set every in-place insert case mutates: `count` short tags.
func sampleTags(count: Int) -> Set<String> {
    Set((0..<count).map { "tag-" + String($0).leftPadded(to: 5) })
}

/// In-place mutations of a `Set<String>` setting of `count` elements on an InMemoryStore:
/// each operation alternately inserts and removes one element (so the set keeps its size),
/// through the wrapper's `_modify`, so each one decodes, changes, encodes and writes.
func inPlaceInsert(_ name: String, count: Int) -> Workload {
    let store = InMemoryStore()
    let tags = Stored<Set<String>>("tags", default: [], store: store)
    tags.wrappedValue = sampleTags(count: count)
    var inserted = false
    return Workload(name) { n in
        for _ in 0..<n {
            if inserted { tags.wrappedValue.remove("zz-extra") } else { tags.wrappedValue.insert("zz-extra") }
            inserted.toggle()
        }
    }
}

/// `n` writes through `setting`, each of the value the last one did not write.
@inline(never)
func storedBoolWrite(_ name: String, _ setting: Stored<Bool>) -> Workload {
    Workload(name) { n in
        var flag = false
        for _ in 0..<n {
            flag.toggle()
            setting.wrappedValue = flag
        }
    }
}

/// In-memory writes and environment reads against hand-written baselines, and the in-place
/// insert into a large set against sorting that set.
func runRoundTwoCases(_ bench: Bench) throws {
    let set = sampleTags(count: 10_000)
    try bench.compare(
        inPlaceInsert("in-place insert, Set<String> of 10,000", count: 10_000),
        against: Workload("Array(set).sorted() of the same set") { n in
            for _ in 0..<n { blackHole(Array(set).sorted()) }
        },
        target: 1.5, note: "alternately inserts and removes one element"
    )

    let locked = LockedDictionaryWriter()
    try bench.compare(
        storedBoolWrite("@Stored<Bool> write, InMemoryStore", Stored(flagKey, default: false, store: InMemoryStore())),
        against: Workload("one lock around a [String: StoredValue] set") { n in
            var flag = false
            for _ in 0..<n {
                flag.toggle()
                locked.set(.bool(flag), forKey: flagKey)
            }
        },
        target: 1.5
    )

    let environment = EnvironmentStore(prefix: "BENCH", environment: ["BENCH_RETRY_COUNT": "42"])
    let environmentCount = Stored("retryCount", default: 0, store: environment)
    let memoryCount = Stored("retryCount", default: 0, store: InMemoryStore(["retryCount": .int(42)]))
    try bench.compare(
        Workload("@Stored<Int> read, EnvironmentStore") { n in
            var sum = 0
            for _ in 0..<n { sum &+= environmentCount.wrappedValue }
            blackHole(sum)
        },
        against: Workload("@Stored<Int> read, InMemoryStore") { n in
            var sum = 0
            for _ in 0..<n { sum &+= memoryCount.wrappedValue }
            blackHole(sum)
        },
        target: 1.5
    )
}

/// The in-place insert rows of the scaling table.
func runInPlaceScaling(_ bench: Bench) throws {
    for count in [100, 1_000, 10_000] {
        bench.progress("in-place insert at \(count) elements")
        bench.addScaling(
            "in-place insert, Set<String> on InMemoryStore", keys: count,
            try bench.harness.measure(inPlaceInsert("insert", count: count)))
    }
}
