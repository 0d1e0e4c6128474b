import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// Collects what an async sequence yields, from a task of its own, so a test can write and
/// then wait for the values to arrive. Waits resume when the awaited value arrives; they never
/// read the clock (a test's `.timeLimit` trait is the guard against a hang).
final class RecordedStream<Element: Sendable>: Sendable {
    private let state = AwaitableState<(values: [Element], finished: Bool)>(([], false))
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

    var values: [Element] { state.value.values }
    var isFinished: Bool { state.value.finished }

    /// Waits until at least `count` values arrived (or the stream ended); returns them all.
    @discardableResult
    func waitForCount(_ count: Int) async -> [Element] {
        await state.wait { $0.values.count >= count || $0.finished }.values
    }

    /// Waits until a value matching `predicate` arrived (or the stream ended); returns every
    /// value so far.
    @discardableResult
    func waitFor(_ predicate: @escaping @Sendable (Element) -> Bool) async -> [Element] {
        await state.wait { $0.values.contains(where: predicate) || $0.finished }.values
    }

    func cancel() {
        task.withLock { $0?.cancel() }
    }

    deinit {
        task.withLock { $0?.cancel() }
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
            // In a temporary folder, never in the user's preferences (see TemporarySuite).
            let suite = try TemporarySuite()
            self.store = suite.store
            cleanup = { withExtendedLifetime(suite) {} }
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

    /// Returns once the store has exactly `count` change streams (where the store can tell).
    func waitForSubscriberCount(_ count: Int) async {
        switch store {
        case let store as InMemoryStore: await store.waitForSubscriberCount(count)
        case let store as UserDefaultsStore: await store.waitForSubscriberCount(count)
        default: break
        }
    }

    deinit { cleanup() }
}

enum ConcurrencyBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory, userDefaults, file

    var testDescription: String { rawValue }

    /// How many `update` calls per task the atomicity tests make: each file write fsyncs twice
    /// (about 4 ms here), so the file store makes fewer (see ``TestScale``).
    /// UserDefaults on Linux saves every write to its domain file, so it makes fewer too.
    var updatesPerTask: Int {
        switch self {
        case .inMemory: TestScale.pick(quick: 1_000, full: 10_000)
        case .userDefaults: TestScale.pick(quick: 200, full: 500)
        case .file: TestScale.pick(quick: 25, full: 100)
        }
    }
}

/// How much load the crash, multi-process, concurrency and stress tests put on.
///
/// `swift test` runs them at a quick scale that still catches regressions (dozens of kills,
/// thousands of concurrent operations), so the suite stays around a minute. With
/// `STORED_SETTINGS_FULL_SCALE=1` in the environment (the reliability step of `.ci/run`) they run
/// at full scale: hundreds of kills across 1 KB, 1 MB and 10 MB files, 8 processes × 500 writes,
/// 64 tasks × 10,000 operations.
enum TestScale {
    static let isFull: Bool =
        ProcessInfo.processInfo.environment["STORED_SETTINGS_FULL_SCALE"].map { !$0.isEmpty && $0 != "0" } ?? false

    /// `quick` normally, `full` at full scale.
    static func pick(quick: Int, full: Int) -> Int {
        isFull ? full : quick
    }

    /// The hang guard of every suite: ``HangGuard``'s limit, far beyond the whole suite's
    /// running time even on a loaded machine. A test that waits for an event fails only when
    /// it never comes.
    static let hangGuard: TimeLimitTrait.Duration = .minutes(HangGuard.minutes)
}
