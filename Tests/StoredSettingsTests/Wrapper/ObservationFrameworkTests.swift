import Foundation
import Observation
import StoredSettings
import StoredSettingsTestSupport
import Testing

// The code of the "Observing settings" article, so the compiler checks it.

private enum Key: String, StorageKey { case autoReload, theme, launchCount }
private enum Theme: String, StoredValueConvertible { case system, light, dark }

private struct AppSettings: SettingsGroup {
    @Stored(Key.autoReload, default: false) var autoReload: Bool
    @Stored(Key.theme, default: .system) var theme: Theme
    @Stored(Key.launchCount, default: 0) var launchCount: Int
}

// The Observation framework needs macOS 14, iOS 17, tvOS 17, watchOS 10 or visionOS 1; the
// package's floor is lower, so the model and every test using it say so.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
@Observable
private final class SettingsModel {
    @ObservationIgnored private let settings: AppSettings
    @ObservationIgnored private let observation = SettingsObservation()

    init(store: any Storable) {
        settings = AppSettings(store: store)
    }

    var autoReload: Bool {
        get { observation.track(settings.$autoReload) }
        set { settings.autoReload = newValue }
    }

    var theme: Theme {
        get { observation.track(settings.$theme) }
        set { settings.theme = newValue }
    }

    /// Not a setting: ordinary `@Observable` state next to the settings.
    var isEditing = false
}

/// Calls `onChange` of `withObservationTracking` into a stream a test can wait on.
private final class ChangeSignal: Sendable {
    let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    var fire: @Sendable () -> Void {
        { [continuation, calls] in
            calls.withLock { $0 += 1 }
            continuation.yield()
        }
    }

    /// How many times `onChange` was called so far.
    var count: Int { calls.value }

    private let calls = AwaitableState(0)

    /// Waits for the next `onChange` call; returns `true` once it came. The test's
    /// `.timeLimit` trait guards against one that never comes.
    func fired() async -> Bool {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next() != nil
    }
}

@Suite(.timeLimit(TestScale.hangGuard))
struct ObservationFrameworkTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func trackingFiresWhenTheStoreChangesTheSetting() async throws {
        let store = InMemoryStore()
        let model = SettingsModel(store: store)
        let signal = ChangeSignal()
        let before = withObservationTracking {
            model.autoReload
        } onChange: {
            signal.fire()
        }
        #expect(before == false)

        try store.setValue(.bool(true), forKey: "autoReload") // another writer

        #expect(await signal.fired())
        #expect(model.autoReload)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func trackingFiresWhenTheModelWritesTheSetting() async {
        let model = SettingsModel(store: InMemoryStore())
        let signal = ChangeSignal()
        _ = withObservationTracking {
            model.theme
        } onChange: {
            signal.fire()
        }

        model.theme = .dark

        #expect(await signal.fired())
        #expect(model.theme == .dark)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func trackingFiresWhenAnotherSettingsValueWrites() async {
        let store = InMemoryStore()
        let model = SettingsModel(store: store)
        let signal = ChangeSignal()
        _ = withObservationTracking {
            model.theme
        } onChange: {
            signal.fire()
        }

        AppSettings(store: store).theme = .light

        #expect(await signal.fired())
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func trackingFiresForFileStoreWrites() async throws {
        let store = try TemporaryFileStore()
        let model = SettingsModel(store: store.fileStore)
        let signal = ChangeSignal()
        _ = withObservationTracking {
            model.autoReload
        } onChange: {
            signal.fire()
        }

        try store.fileStore.setValue(.bool(true), forKey: "autoReload")

        #expect(await signal.fired())
        #expect(model.autoReload)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func otherKeysAndIdenticalWritesDoNotFire() async throws {
        let store = InMemoryStore(["autoReload": .bool(true)])
        let model = SettingsModel(store: store)
        let signal = ChangeSignal()
        _ = withObservationTracking {
            model.autoReload
        } onChange: {
            signal.fire()
        }

        let themeSignal = ChangeSignal()
        _ = withObservationTracking {
            model.theme
        } onChange: {
            themeSignal.fire()
        }

        try store.setValue(.bool(true), forKey: "autoReload") // the value it holds
        try store.setValue(.int(3), forKey: "launchCount") // another key
        AppSettings(store: store).theme = .dark // another key, tracked too

        // The model passes changes on in commit order: once the theme change reached its
        // observer, the writes before it were passed on, and none of them fired.
        #expect(await themeSignal.fired())
        #expect(signal.count == 0)
        try store.setValue(.bool(false), forKey: "autoReload") // a real change
        #expect(await signal.fired())
        #expect(signal.count == 1)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func ordinaryObservablePropertiesStillWork() async {
        let model = SettingsModel(store: InMemoryStore())
        let signal = ChangeSignal()
        _ = withObservationTracking {
            model.isEditing
        } onChange: {
            signal.fire()
        }
        model.isEditing = true
        #expect(await signal.fired())
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func releasingTheModelReleasesTheSubscription() async {
        let store = InMemoryStore()
        do {
            let model = SettingsModel(store: store)
            _ = model.autoReload
            #expect(store.subscriberCount == 1)
        }
        await store.waitForSubscriberCount(0)
        #expect(store.subscriberCount == 0)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func oneSubscriptionPerStoreWhateverIsTracked() {
        let store = InMemoryStore()
        let model = SettingsModel(store: store)
        _ = model.autoReload
        _ = model.theme
        _ = model.autoReload
        #expect(store.subscriberCount == 1)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func onChangeMayReadAndWriteSettings() async throws {
        let store = InMemoryStore()
        let model = SettingsModel(store: store)
        let signal = ChangeSignal()
        _ = withObservationTracking {
            model.autoReload
        } onChange: {
            // Called outside every lock: reading and writing settings here is fine.
            let settings = AppSettings(store: store)
            _ = settings.autoReload
            settings.launchCount += 1
            signal.fire()
        }
        try store.setValue(.bool(true), forKey: "autoReload")
        #expect(await signal.fired())
        #expect(AppSettings(store: store).launchCount == 1)
    }
}
