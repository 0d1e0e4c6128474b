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
        { [continuation] in continuation.yield() }
    }

    /// Whether `onChange` was called within `timeout`.
    func fired(within timeout: Duration = .seconds(10)) async -> Bool {
        let stream = self.stream
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                var iterator = stream.makeAsyncIterator()
                return await iterator.next() != nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}

struct ObservationFrameworkTests {
    @Test func trackingFiresWhenTheStoreChangesTheSetting() async throws {
        let store = InMemoryStore()
        let model = SettingsModel(store: store)
        let signal = ChangeSignal()
        let before = withObservationTracking { model.autoReload } onChange: { signal.fire() }
        #expect(before == false)

        try store.setValue(.bool(true), forKey: "autoReload")       // another writer

        #expect(await signal.fired())
        #expect(model.autoReload)
    }

    @Test func trackingFiresWhenTheModelWritesTheSetting() async {
        let model = SettingsModel(store: InMemoryStore())
        let signal = ChangeSignal()
        _ = withObservationTracking { model.theme } onChange: { signal.fire() }

        model.theme = .dark

        #expect(await signal.fired())
        #expect(model.theme == .dark)
    }

    @Test func trackingFiresWhenAnotherSettingsValueWrites() async {
        let store = InMemoryStore()
        let model = SettingsModel(store: store)
        let signal = ChangeSignal()
        _ = withObservationTracking { model.theme } onChange: { signal.fire() }

        AppSettings(store: store).theme = .light

        #expect(await signal.fired())
    }

    @Test func trackingFiresForFileStoreWrites() async throws {
        let store = try TemporaryFileStore()
        let model = SettingsModel(store: store.fileStore)
        let signal = ChangeSignal()
        _ = withObservationTracking { model.autoReload } onChange: { signal.fire() }

        try store.fileStore.setValue(.bool(true), forKey: "autoReload")

        #expect(await signal.fired())
        #expect(model.autoReload)
    }

    @Test func otherKeysAndIdenticalWritesDoNotFire() async throws {
        let store = InMemoryStore(["autoReload": .bool(true)])
        let model = SettingsModel(store: store)
        let signal = ChangeSignal()
        _ = withObservationTracking { model.autoReload } onChange: { signal.fire() }

        try store.setValue(.bool(true), forKey: "autoReload")       // the value it holds
        try store.setValue(.int(3), forKey: "launchCount")          // another key
        AppSettings(store: store).theme = .dark                     // another key

        #expect(await signal.fired(within: .milliseconds(300)) == false)
    }

    @Test func ordinaryObservablePropertiesStillWork() async {
        let model = SettingsModel(store: InMemoryStore())
        let signal = ChangeSignal()
        _ = withObservationTracking { model.isEditing } onChange: { signal.fire() }
        model.isEditing = true
        #expect(await signal.fired(within: .seconds(1)))
    }

    @Test func releasingTheModelReleasesTheSubscription() async {
        let store = InMemoryStore()
        do {
            let model = SettingsModel(store: store)
            _ = model.autoReload
            #expect(store.subscriberCount == 1)
        }
        #expect(await ObservationWait.until { store.subscriberCount == 0 })
    }

    @Test func oneSubscriptionPerStoreWhateverIsTracked() {
        let store = InMemoryStore()
        let model = SettingsModel(store: store)
        _ = model.autoReload
        _ = model.theme
        _ = model.autoReload
        #expect(store.subscriberCount == 1)
    }

    @Test func onChangeMayReadAndWriteSettings() async throws {
        let store = InMemoryStore()
        let model = SettingsModel(store: store)
        let signal = ChangeSignal()
        _ = withObservationTracking { model.autoReload } onChange: {
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
