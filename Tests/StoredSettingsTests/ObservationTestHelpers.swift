import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// Collects what an async sequence yields, from a task of its own, so a test can write and
/// then wait for the values to arrive.
final class RecordedStream<Element: Sendable>: Sendable {
    private let state = Lock<(values: [Element], finished: Bool)>(([], false))
    private let task = Lock<Task<Void, Never>?>(nil)

    init(_ stream: AsyncStream<Element>) {
        let state = self.state
        task.withLock {
            $0 = Task {
                for await value in stream {
                    state.withLock { $0.values.append(value) }
                }
                state.withLock { $0.finished = true }
            }
        }
    }

    var values: [Element] { state.withLock { $0.values } }
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Waits until at least `count` values arrived, or the timeout passed; returns them all.
    @discardableResult
    func waitForCount(_ count: Int, timeout: Duration = .seconds(10)) async -> [Element] {
        _ = await ObservationWait.until(timeout: timeout) { self.values.count >= count }
        return values
    }

    /// Waits until a value matching `predicate` arrived; returns every value so far.
    @discardableResult
    func waitFor(timeout: Duration = .seconds(10), _ predicate: @escaping @Sendable (Element) -> Bool) async -> [Element] {
        _ = await ObservationWait.until(timeout: timeout) { self.values.contains(where: predicate) }
        return values
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }

    deinit {
        task.withLock { $0?.cancel() }
    }
}

enum ObservationWait {
    /// Polls `condition` every millisecond until it holds or `timeout` passes.
    static func until(timeout: Duration = .seconds(10), _ condition: @Sendable () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return condition()
    }
}

/// A fresh store of one backend, removed when released.
final class ConcurrencyFixture: Sendable {
    let store: any Storable
    private let cleanup: @Sendable () -> Void

    init(_ backend: ConcurrencyBackend) throws {
        switch backend {
        case .inMemory:
            store = InMemoryStore()
            cleanup = {}
        case .userDefaults:
            let name = "StoredSettingsTests-\(UUID().uuidString)"
            let store = try UserDefaultsStore(suiteName: name)
            self.store = store
            cleanup = { store.defaults.removePersistentDomain(forName: name) }
        case .file:
            store = try TemporaryFileStore()
            cleanup = {}
        }
    }

    /// How many change streams the store has now, where the store can tell.
    var subscriberCount: Int? {
        switch store {
        case let store as InMemoryStore: store.subscriberCount
        case let store as UserDefaultsStore: store.subscriberCount
        default: nil
        }
    }

    deinit { cleanup() }
}

enum ConcurrencyBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory, userDefaults, file

    var testDescription: String { rawValue }

    /// How many `update` calls per task the atomicity tests make: each file write fsyncs twice
    /// (about 4 ms here), so the file store makes fewer. Scaled down under the thread
    /// sanitizer (see ``StressScale``).
    var updatesPerTask: Int { StressScale.count(self == .file ? 100 : 10_000) }
}

/// How much of the full load the concurrency and stress tests run.
///
/// Full size normally. Under the thread sanitizer, which slows this code 5 to 20 times, a
/// tenth: detected by `STORED_SETTINGS_TSAN` being set (as `.ci/run` does) or the sanitizer
/// runtime's `__tsan_init` symbol being present. The environment variable
/// `STORED_SETTINGS_STRESS_SCALE` (a number, e.g. `0.25`) overrides both.
enum StressScale {
    static let factor: Double = {
        if let text = ProcessInfo.processInfo.environment["STORED_SETTINGS_STRESS_SCALE"],
           let value = Double(text), value > 0 {
            return value
        }
        return isThreadSanitizerActive ? 0.1 : 1
    }()

    /// `count` scaled, at least 1.
    static func count(_ count: Int) -> Int {
        max(1, Int((Double(count) * factor).rounded()))
    }

    /// Whether the process runs with the thread sanitizer's runtime.
    static let isThreadSanitizerActive: Bool = {
        if ProcessInfo.processInfo.environment["STORED_SETTINGS_TSAN"] != nil { return true }
        guard let handle = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(handle) }
        return dlsym(handle, "__tsan_init") != nil
    }()
}
