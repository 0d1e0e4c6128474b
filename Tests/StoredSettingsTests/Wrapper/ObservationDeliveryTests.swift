import Foundation
import Observation
import StoredSettings
import StoredSettingsTestSupport
import Testing

// How the package's stores deliver a committed change to the Observation framework: on the
// writing thread, once the write holds no lock, before the write returns; no task, so a write
// of a followed key costs no thread wake-up.

/// The package's stores a setting may be observed on, each fresh.
enum ObservedBackend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case inMemory, durableFile, writeBehindFile, userDefaults

    var testDescription: String { rawValue }

    /// A fresh store, and what keeps it (a temporary file or suite) until the test ends.
    func makeStore() throws -> (store: any Storable, keep: Any) {
        switch self {
        case .inMemory:
            return (InMemoryStore(), ())
        case .durableFile:
            let file = try TemporaryFileStore(options: FileStore.Options(changeCheckInterval: nil))
            return (file.fileStore, file)
        case .writeBehindFile:
            let file = try TemporaryFileStore(
                options: FileStore.Options(changeCheckInterval: nil, writeMode: .writeBehind))
            return (file.fileStore, file)
        case .userDefaults:
            let suite = try TemporarySuite()
            return (suite.store, suite)
        }
    }
}

/// Counts `onChange` calls; `Sendable`, so `onChange` may record into it from any thread.
private final class CallCount: Sendable {
    private let count = Lock(0)
    func record() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

@Suite(.timeLimit(TestScale.hangGuard))
struct ObservationDeliveryTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test(arguments: ObservedBackend.allCases)
    func onChangeIsCalledBeforeAWriteThroughASettingReturns(_ backend: ObservedBackend) throws {
        let (store, keep) = try backend.makeStore()
        let flag = Stored("flag", default: false, store: store)
        let calls = CallCount()
        _ = withObservationTracking {
            flag.wrappedValue
        } onChange: {
            calls.record()
        }

        flag.wrappedValue = true

        #expect(calls.value == 1)
        withExtendedLifetime(keep) {}
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test(arguments: ObservedBackend.allCases)
    func onChangeIsCalledBeforeAWriteThroughTheStoreReturns(_ backend: ObservedBackend) throws {
        let (store, keep) = try backend.makeStore()
        let count = Stored("count", default: 0, store: store)
        let calls = CallCount()
        _ = withObservationTracking {
            count.wrappedValue
        } onChange: {
            calls.record()
        }

        try store.update(forKey: "count") { $0 = .int(1) }

        #expect(calls.value == 1)
        #expect(count.wrappedValue == 1)
        withExtendedLifetime(keep) {}
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test(arguments: ObservedBackend.allCases)
    func onChangeMayWriteTheSameStoreOnTheWritingThread(_ backend: ObservedBackend) throws {
        let (store, keep) = try backend.makeStore()
        let flag = Stored("flag", default: false, store: store)
        let echo = Stored("echo", default: false, store: store)
        let calls = CallCount()
        _ = withObservationTracking {
            flag.wrappedValue
        } onChange: {
            // On the writer's thread with none of the store's locks held: a write here neither
            // deadlocks nor is refused.
            echo.wrappedValue = flag.wrappedValue
            calls.record()
        }

        flag.wrappedValue = true

        #expect(calls.value == 1)
        #expect(echo.wrappedValue)
        #expect(store.value(forKey: "echo") == .bool(true))
        withExtendedLifetime(keep) {}
    }
}

/// Where an observer runs when the change comes from inside another store's update body.
@Suite(.timeLimit(TestScale.hangGuard))
struct ObservationInsideUpdateBodyTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test(arguments: [ObservedBackend.inMemory, .durableFile])
    func onChangeForAWriteInsideAnotherStoresUpdateBodyMayWriteThatStore(_ backend: ObservedBackend) throws {
        let (outer, keepOuter) = try backend.makeStore()
        let (inner, keepInner) = try backend.makeStore()
        let watched = Stored("watched", default: 0, store: inner)
        let echo = Stored("echo", default: 0, store: outer)
        let outcome = Lock("onChange not called")
        _ = withObservationTracking {
            watched.wrappedValue
        } onChange: {
            // Called once the outer body returned: its store takes the write.
            do {
                try echo.save(1)
                outcome.withLock { $0 = "written" }
            } catch {
                outcome.withLock { $0 = "\(error)" }
            }
        }

        try outer.update(forKey: "other") { _ in try inner.setValue(.int(1), forKey: "watched") }

        #expect(outcome.withLock { $0 } == "written")
        #expect(echo.wrappedValue == 1)
        withExtendedLifetime((keepOuter, keepInner)) {}
    }
}
