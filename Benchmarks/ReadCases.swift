import Foundation
import StoredSettings
import StoredSettingsTestSupport

/// The key every single-setting case reads and writes (a small string, as most keys are).
let flagKey = "autoReload"

/// A workload reading a `@Stored<Bool>` `n` times.
func storedBoolRead(_ name: String, _ setting: Stored<Bool>) -> Workload {
    Workload(name) { n in
        var count = 0
        for _ in 0..<n where setting.wrappedValue { count &+= 1 }
        blackHole(count)
    }
}

/// The hand-written locked-dictionary read every in-memory read is compared with.
func lockedDictionaryRead() -> Workload {
    let locked = LockedDictionary([flagKey: .bool(true)])
    return Workload("locked [String: StoredValue] + switch") { n in
        var count = 0
        for _ in 0..<n where locked.bool(forKey: flagKey, default: false) { count &+= 1 }
        blackHole(count)
    }
}

func userDefaultsBoolRead(_ defaults: UserDefaults) -> Workload {
    Workload("UserDefaults.bool(forKey:)") { n in
        var count = 0
        for _ in 0..<n where defaults.bool(forKey: flagKey) { count &+= 1 }
        blackHole(count)
    }
}

/// Reads through every backend, the cached structured read and `update`.
func runReadCases(_ bench: Bench) throws {
    let baseline = lockedDictionaryRead()

    // InMemoryStore
    let memory = InMemoryStore([flagKey: .bool(true)])
    try bench.compare(
        storedBoolRead("@Stored<Bool> read, InMemoryStore", Stored(flagKey, default: false, store: memory)),
        against: baseline, target: 1.5
    )

    // FileStore (100 keys, like a real settings file)
    let folder = try ScratchFolder()
    defer { folder.remove() }
    var values = sampleValues(count: 99)
    values[flagKey] = .bool(true)
    let fileURL = folder.file("settings.json")
    try StoredValueJSON.data(from: .dictionary(values)).write(to: fileURL)
    let fileStore = try FileStore(url: fileURL)
    try bench.compare(
        storedBoolRead("@Stored<Bool> read, FileStore", Stored(flagKey, default: false, store: fileStore)),
        against: baseline, target: 1.5
    )

    // UserDefaults: for scale against the same baseline, then the wrapper against it.
    let suite = try ScratchDefaults()
    defer { suite.remove() }
    suite.defaults.set(true, forKey: flagKey)
    try bench.compare(userDefaultsBoolRead(suite.defaults), against: baseline, target: nil, note: "for scale")
    let defaultsStore = UserDefaultsStore(suite.defaults)
    try bench.compare(
        storedBoolRead("@Stored<Bool> read, UserDefaultsStore", Stored(flagKey, default: false, store: defaultsStore)),
        against: userDefaultsBoolRead(suite.defaults), target: 1.2
    )

    try runProfileCases(bench, memory: memory)
    try runUpdateCase(bench)
}

/// The repeated structured read, and the uncached decode against `JSONDecoder`.
func runProfileCases(_ bench: Bench, memory: InMemoryStore) throws {
    let store = InMemoryStore(["profile": try Profile.sample.storedValue(), flagKey: .bool(true)])
    let profile = Stored("profile", default: Profile.sample, store: store)
    guard profile.wrappedValue == Profile.sample else { throw BenchmarkError("Profile does not round-trip") }
    try bench.compare(
        Workload("@Stored<Profile> read, repeated") { n in
            var total = 0
            for _ in 0..<n { total &+= profile.wrappedValue.launchCount }
            blackHole(total)
        },
        against: storedBoolRead("@Stored<Bool> read, InMemoryStore", Stored(flagKey, default: false, store: memory)),
        target: 3
    )
    try runProfileDecodeCase(bench)
}

/// `$count.update { $0 += 1 }` against a read and a write of the same setting.
func runUpdateCase(_ bench: Bench) throws {
    let store = InMemoryStore()
    let counter = Stored("launchCount", default: 0, store: store)
    try bench.compare(
        Workload("$x.update { $0 += 1 }, InMemoryStore") { n in
            for _ in 0..<n { try counter.update { $0 += 1 } }
        },
        against: Workload("@Stored<Int> read + write") { n in
            for _ in 0..<n { counter.wrappedValue = counter.wrappedValue &+ 1 }
        },
        target: 2
    )
    blackHole(counter.wrappedValue)
}
