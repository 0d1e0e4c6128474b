import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

private enum Key: String, StorageKey {
    case counter = "stress.counter"
    case flag = "stress/flag"
    case name = "stress name 🎉"
    case date = "user@stress.date"
    case list = "stress.list"
}

private struct StressSettings: SettingsGroup {
    @Stored(Key.counter, default: 0) var counter: Int
    @Stored(Key.flag, default: false) var flag: Bool
    @Stored(Key.name) var name: String?
    @Stored(Key.date) var date: Date?
    @Stored(Key.list, default: []) var list: [Int]
}

/// Many tasks doing everything at once to two stores: run under `--sanitize=thread` in CI.
@Suite(.timeLimit(.minutes(10)))
struct StressTests {
    /// 64 tasks × 10,000 mixed operations at full scale (500 each by default, see
    /// `TestScale`) on an `InMemoryStore` and a `UserDefaultsStore`: reads, writes, updates,
    /// resets, `load()`, subscriptions and cancellations, with consumers running throughout.
    @Test func mixedOperationsOnTwoStoresStayConsistent() async throws {
        let memory = InMemoryStore()
        let suiteName = FileManager.default.temporaryDirectory.appendingPathComponent(
            "StoredSettingsTests-\(UUID().uuidString)"
        ).path
        let defaults = try UserDefaultsStore(suiteAtPath: suiteName)
        defer { defaults.defaults.removePersistentDomain(forName: suiteName) }
        let stores: [any Storable] = [memory, defaults]
        let groups = stores.map { StressSettings(store: $0) }
        // Each store's one subscription for the Observation framework, which stays.
        let idle = (memory.subscriberCount, defaults.subscriberCount)

        // Long-lived observers on both stores for the whole run.
        let counterWatchers = groups.map { LatestValue($0.$counter.updates) }
        let nameWatchers = groups.map { LatestValue($0.$name.updates) }
        let changeWatchers = stores.map { LatestValue($0.changes()) }

        let tasks = 64
        let operations = TestScale.pick(quick: 500, full: 10_000)
        let reported = ReportedErrors()
        let expectedIncrements = await reported.capture {
            await withTaskGroup(of: [Int].self) { group in
                for taskIndex in 0..<tasks {
                    group.addTask {
                        await Self.run(task: taskIndex, operations: operations, groups: groups, stores: stores)
                    }
                }
                var total = [0, 0]
                for await increments in group {
                    total[0] += increments[0]
                    total[1] += increments[1]
                }
                return total
            }
        }

        #expect(reported.isEmpty, "\(reported.errors)")
        for (index, settings) in groups.enumerated() {
            #expect(settings.counter == expectedIncrements[index])
        }
        // Observers are still in step: each ends on the final value.
        for (index, settings) in groups.enumerated() {
            let final = settings.counter
            let name = settings.name
            #expect(await counterWatchers[index].wait { $0 == final } == final)
            #expect(await nameWatchers[index].wait { $0 == name } == .some(name))
        }
        // A change committed after all others: once a change watcher holds it, it took them all.
        let end = StoredChange(key: "stress.end", value: .bool(true))
        for (store, watcher) in zip(stores, changeWatchers) {
            try store.setValue(end.value, forKey: end.key)
            #expect(await watcher.wait { $0 == end } == end)
            #expect(watcher.count > 1)
        }
        for watcher in counterWatchers { watcher.cancel() }
        for watcher in nameWatchers { watcher.cancel() }
        for watcher in changeWatchers { watcher.cancel() }
        await memory.waitForSubscriberCount(idle.0)
        await defaults.waitForSubscriberCount(idle.1)
        #expect(memory.subscriberCount == idle.0 && defaults.subscriberCount == idle.1)
    }

    /// One task's share: returns how many counter increments it made on each store.
    private static func run(task: Int, operations: Int, groups: [StressSettings], stores: [any Storable]) async -> [Int]
    {
        var random = SplitMix(seed: UInt64(task) &* 0x9E37_79B9_7F4A_7C15 &+ 1)
        var increments = [0, 0]
        for step in 0..<operations {
            // One operation in eight goes to the UserDefaults store, whose writes are slower.
            let storeIndex = random.next(8) == 0 ? 1 : 0
            let settings = groups[storeIndex]
            let store = stores[storeIndex]
            switch random.next(100) {
            case 0..<30:
                _ = settings.counter
                _ = settings.name
                _ = settings.list
            case 30..<40:
                settings.flag = random.next(2) == 0
                settings.name = "task \(task) step \(step)"
            case 40..<50:
                try? settings.$list.update { list in
                    list.append(step)
                    if list.count > 8 { list.removeFirst(list.count - 8) }
                }
            case 50..<65:
                if (try? settings.$counter.update({ $0 += 1 })) != nil { increments[storeIndex] += 1 }
            case 65..<70:
                settings.$name.reset()
                settings.$flag.reset()
            case 70..<75:
                settings.date = Date(timeIntervalSinceReferenceDate: Double(step) + 0.25)
                _ = try? settings.$date.load()
            case 75..<85:
                _ = store.value(forKey: Key.name.rawValue)
                _ = store.keys()
                _ = settings.$flag.hasStoredValue
            case 85..<98:
                // Reads of one store inside an update of the other.
                let other = groups[1 - storeIndex]
                try? settings.$list.update { $0 = [other.counter % 100] }
            default:
                // A short-lived subscriber: first value, then gone.
                for await _ in settings.$counter.updates { break }
                switch step % 6 {
                case 0:
                    // A consumer cancelled before or while it starts.
                    let consumer = Task { for await _ in settings.$name.updates {} }
                    consumer.cancel()
                case 3:
                    // A consumer cancelled after it had a chance to run, while writers write.
                    let consumer = Task { for await _ in settings.$name.updates {} }
                    await Task.yield()
                    consumer.cancel()
                default:
                    break
                }
            }
        }
        return increments
    }
}

/// A small deterministic random number generator, so a failing run can be repeated.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next(_ bound: UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return (z ^ (z >> 31)) % bound
    }
}

/// Consumes a stream in a task of its own, keeping only the newest element and a count.
private final class LatestValue<Element: Sendable & Equatable>: Sendable {
    private let state = AwaitableState<(latest: Element?, count: Int)>((nil, 0))
    private let task = Lock<Task<Void, Never>?>(nil)

    init(_ stream: AsyncStream<Element>) {
        let state = self.state
        task.withLock {
            $0 = Task {
                for await element in stream { state.withLock { $0 = (element, $0.count + 1) } }
            }
        }
    }

    var latest: Element? { state.value.latest }
    var count: Int { state.value.count }

    /// Waits until the newest element satisfies `condition`; returns it.
    func wait(until condition: @escaping @Sendable (Element) -> Bool) async -> Element? {
        await state.wait { $0.latest.map(condition) ?? false }.latest
    }

    func cancel() { task.withLock { $0?.cancel() } }
}
