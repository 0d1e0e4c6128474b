import Foundation
import Observation
import StoredSettings
import StoredSettingsTestSupport
import Testing

// The code of the "Observing settings" article, so the compiler checks it: every `@Stored` read
// registers with the Observation framework, in a plain settings value and in an `@Observable`
// model alike, with no code per setting.

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
    @ObservationIgnored @Stored(Key.autoReload, default: false) var autoReload: Bool
    @ObservationIgnored @Stored(Key.theme, default: .system) var theme: Theme

    /// Not a setting: ordinary `@Observable` state next to the settings.
    var isEditing = false
}

/// Calls `onChange` of `withObservationTracking` into a stream a test can wait on, with what
/// `onChange` read.
private final class ChangeSignal<Seen: Sendable>: Sendable {
    private let stream: AsyncStream<Seen>
    private let continuation: AsyncStream<Seen>.Continuation
    private let calls = AwaitableState(0)

    init(of: Seen.Type = Void.self) {
        (stream, continuation) = AsyncStream.makeStream(of: Seen.self)
    }

    /// Records a call of `onChange` that saw `seen`.
    func fire(_ seen: Seen) {
        calls.withLock { $0 += 1 }
        continuation.yield(seen)
    }

    /// How many times `onChange` was called so far.
    var count: Int { calls.value }

    /// Waits for the next `onChange` call and returns what it saw. The test's `.timeLimit`
    /// trait guards against one that never comes.
    func next() async -> Seen? {
        var iterator = stream.makeAsyncIterator()
        return await iterator.next()
    }
}

extension ChangeSignal where Seen == Void {
    func fire() { fire(()) }
    func fired() async -> Bool { await next() != nil }
}

@Suite(.timeLimit(TestScale.hangGuard))
struct ObservationFrameworkTests {
    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func aSettingsValueIsObservedWhenTheStoreChangesTheSetting() async throws {
        let store = InMemoryStore()
        let settings = AppSettings(store: store)
        let signal = ChangeSignal(of: Bool.self)
        let before = withObservationTracking {
            settings.autoReload
        } onChange: {
            signal.fire(settings.autoReload)
        }
        #expect(before == false)

        try store.setValue(.bool(true), forKey: "autoReload") // the store's own API

        #expect(await signal.next() == true)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func aSettingsValueIsObservedWhenAnotherWrapperWrites() async {
        let store = InMemoryStore()
        let settings = AppSettings(store: store)
        let signal = ChangeSignal(of: Theme.self)
        _ = withObservationTracking {
            settings.theme
        } onChange: {
            signal.fire(settings.theme)
        }

        Stored(Key.theme, default: Theme.system, store: store).wrappedValue = .light

        #expect(await signal.next() == .light)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func anObservableModelHoldingStoredSettingsIsObservedWithNoOtherCode() async {
        let store = InMemoryStore()
        let model = StoreContext.withStore(store) { SettingsModel() }
        let signal = ChangeSignal(of: Theme.self)
        let theme = model.$theme // the model is not `Sendable`; its setting is
        _ = withObservationTracking {
            model.theme
        } onChange: {
            signal.fire(theme.wrappedValue)
        }

        AppSettings(store: store).theme = .dark // another settings value

        #expect(await signal.next() == .dark)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func theModelsOwnWriteIsObserved() async {
        let model = StoreContext.withStore(InMemoryStore()) { SettingsModel() }
        let signal = ChangeSignal()
        _ = withObservationTracking {
            model.autoReload
        } onChange: {
            signal.fire()
        }

        model.autoReload = true

        #expect(await signal.fired())
        #expect(model.autoReload)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func anotherProcessWritingAFileStoreIsObserved() async throws {
        let store = try TemporaryFileStore()
        let settings = AppSettings(store: store.fileStore)
        let signal = ChangeSignal(of: Bool.self)
        _ = withObservationTracking {
            settings.autoReload
        } onChange: {
            signal.fire(settings.autoReload)
        }

        _ = try await ChildProcess.run(["set", store.url.path, "autoReload", "true"])

        #expect(await signal.next() == true)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func aChangeToAnotherKeyOrOfNothingCallsNothing() async throws {
        let store = InMemoryStore(["autoReload": .bool(true)])
        let settings = AppSettings(store: store)
        let signal = ChangeSignal(of: Bool.self)
        _ = withObservationTracking {
            settings.autoReload
        } onChange: {
            signal.fire(settings.autoReload)
        }
        let themeSignal = ChangeSignal()
        _ = withObservationTracking {
            settings.theme
        } onChange: {
            themeSignal.fire()
        }

        try store.setValue(.bool(true), forKey: "autoReload") // the value it holds
        try store.setValue(.int(3), forKey: "launchCount") // another key
        settings.theme = .dark // another key, tracked too
        #expect(await themeSignal.fired())
        try store.setValue(.bool(false), forKey: "autoReload") // a real change

        // A call made for another key would have come before this commit and seen `true`.
        #expect(await signal.next() == false)
        #expect(signal.count == 1)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func trackingAgainAfterAChangeSeesTheNextChange() async throws {
        let store = InMemoryStore()
        let settings = AppSettings(store: store)
        for count in 1...3 {
            let signal = ChangeSignal(of: Int.self)
            _ = withObservationTracking {
                settings.launchCount
            } onChange: {
                signal.fire(settings.launchCount)
            }
            settings.launchCount = count
            #expect(await signal.next() == count)
        }
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func ordinaryObservablePropertiesStillWork() async {
        let model = StoreContext.withStore(InMemoryStore()) { SettingsModel() }
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
    @Test func settingsCostOneSubscriptionPerStoreAndDoNotKeepTheStore() async {
        weak var released: InMemoryStore?
        do {
            let store = InMemoryStore()
            released = store
            for _ in 0..<3 {
                let settings = AppSettings(store: store)
                let other = AppSettings(store: store)
                _ = (settings.autoReload, settings.theme, settings.launchCount, other.launchCount)
                #expect(store.subscriberCount == 1)
            }
        }
        #expect(released == nil)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func aStoreBoundWithWithStoreIsNotKeptByItsObservation() async {
        weak var released: InMemoryStore?
        do {
            let store = InMemoryStore()
            released = store
            // The first setting of the store is made where the store is bound to the task.
            let model = StoreContext.withStore(store) { SettingsModel() }
            _ = model.autoReload
        }
        #expect(released == nil)
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func aKeyFirstFollowedAfterOtherCodeChangedItSeesItChangeBack() async throws {
        let suite = try TemporarySuite()
        let defaults = suite.store.defaults
        defaults.set(5, forKey: "volume")
        let other = Stored("other", default: 0, store: suite.store) // the suite is watched from here
        defaults.set(7, forKey: "volume") // by other code, while nobody follows the key
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)

        let volume = Stored("volume", default: 0, store: suite.store)
        let signal = ChangeSignal()
        _ = withObservationTracking {
            volume.wrappedValue
        } onChange: {
            signal.fire()
        }
        defaults.set(5, forKey: "volume")
        NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
        #expect(await signal.fired())
        #expect(volume.wrappedValue == 5)
        withExtendedLifetime(other) {}
    }

    @available(macOS 14, iOS 17, tvOS 17, watchOS 10, visionOS 1, *)
    @Test func onChangeMayReadAndWriteSettings() async throws {
        let store = InMemoryStore()
        let settings = AppSettings(store: store)
        let signal = ChangeSignal()
        _ = withObservationTracking {
            settings.autoReload
        } onChange: {
            // Called outside every lock: reading and writing settings here is fine.
            _ = settings.autoReload
            settings.launchCount += 1
            signal.fire()
        }
        try store.setValue(.bool(true), forKey: "autoReload")
        #expect(await signal.fired())
        #expect(settings.launchCount == 1)
    }
}
