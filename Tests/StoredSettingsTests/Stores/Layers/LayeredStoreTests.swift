import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

@Suite(.timeLimit(TestScale.hangGuard))
struct LayeredStoreTests {
    /// Which of the three layers hold `autoReload`.
    struct LayerCombination: CustomTestStringConvertible, Sendable {
        var environment: Bool
        var commandLine: Bool
        var file: Bool
        var testDescription: String {
            [environment ? "environment" : nil, commandLine ? "command line" : nil, file ? "file" : nil]
                .compactMap { $0 }.joined(separator: "+").nonEmpty ?? "none"
        }

        static let all: [LayerCombination] = [false, true].flatMap { environment in
            [false, true].flatMap { commandLine in
                [false, true].map { file in
                    LayerCombination(environment: environment, commandLine: commandLine, file: file)
                }
            }
        }
    }

    @Test(arguments: LayerCombination.all)
    func theFirstLayerHoldingAKeyWinsAndNamesItsOrigin(_ combination: LayerCombination) throws {
        let file = try TemporaryFileStore()
        if combination.file { try file.setValue(.string("file"), forKey: "theme") }
        let environment = EnvironmentStore(
            prefix: "APP", environment: combination.environment ? ["APP_THEME": "environment"] : [:])
        let commandLine = CommandLineStore(arguments: combination.commandLine ? ["--set", "theme=argument"] : [])
        let store = LayeredStore([environment, commandLine, file], writingTo: file)

        let expected: (value: StoredValue?, origin: String?) =
            combination.environment
            ? (.string("environment"), "environment variable APP_THEME")
            : combination.commandLine
                ? (.string("argument"), "--set theme=… on the command line")
                : combination.file
                    ? (.string("file"), "file " + file.url.path)
                    : (nil, nil)
        #expect(store.value(forKey: "theme") == expected.value)
        #expect(store.origin(forKey: "theme") == expected.origin)
        let description = try #require(ToolSettings(store: store).settingDescriptions().first { $0.key == "theme" })
        #expect(description.origin == expected.origin ?? "default")
    }

    /// Whether `HOME` is a folder `~` can stand for (not unset, relative or `/`).
    static var homeIsAbbreviated: Bool {
        guard let home = ProcessInfo.processInfo.environment["HOME"] else { return false }
        return home.hasPrefix("/") && home != "/"
    }

    @Test(.enabled(if: homeIsAbbreviated, "HOME is a folder other than /"))
    func fileOriginsAbbreviateTheHomeFolder() throws {
        let home = try #require(ProcessInfo.processInfo.environment["HOME"])
        let inner = InMemoryStore(["k": .int(1)])
        let located = LocatedStore(wrapping: inner, location: home + "/.config/app/settings.json")
        let store = LayeredStore([located], writingTo: located)
        #expect(store.origin(forKey: "k") == "file ~/.config/app/settings.json")
    }

    @Test func aMalformedHigherValueIsAnErrorNamingItsSourceNotMaskedByALowerLayer() throws {
        let file = InMemoryStore(["autoReload": .bool(true), "pageSize": .int(50)])
        let environment = EnvironmentStore(prefix: "APP", environment: ["APP_AUTO_RELOAD": "maybe"])
        let commandLine = CommandLineStore(arguments: ["--set", "pageSize=lots"])
        let store = LayeredStore([environment, commandLine, file], writingTo: file)
        let settings = ToolSettings(store: store)

        let reports = CapturedReports()
        reports.capture {
            #expect(settings.autoReload == false) // the default, not the file's `true`
            #expect(settings.pageSize == 20)
        }
        #expect(
            reports.all.map(\.location) == [
                "environment variable APP_AUTO_RELOAD", "--set pageSize=… on the command line",
            ])
        let error = try #require(throws: StorageError.self) { try settings.$autoReload.load() }
        #expect(error.code == .typeMismatch)
        #expect(error.key == "autoReload")
        #expect(error.location == "environment variable APP_AUTO_RELOAD")
        #expect(
            error.description
                == "Setting 'autoReload' in environment variable APP_AUTO_RELOAD: expected Bool, found string.")
        #expect(file.value(forKey: "autoReload") == .bool(true))
    }

    @Test func aMalformedFileValueNamesTheFile() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.string("lots"), forKey: "pageSize")
        let store = LayeredStore([EnvironmentStore(prefix: "APP", environment: [:]), file], writingTo: file)
        let error = try #require(throws: StorageError.self) { try ToolSettings(store: store).$pageSize.load() }
        #expect(error.location == "file " + file.url.path)
    }

    @Test func writesGoToTheWritableLayerAndHigherLayersStillWin() throws {
        let file = try TemporaryFileStore()
        let environment = EnvironmentStore(prefix: "APP", environment: ["APP_PAGE_SIZE": "5"])
        let store = LayeredStore([environment, file], writingTo: file)
        let settings = ToolSettings(store: store)
        settings.pageSize = 40
        settings.theme = .dark
        #expect(try file.reopened().value(forKey: "pageSize") == .int(40))
        #expect(settings.pageSize == 5)
        #expect(settings.theme == .dark)
        #expect(store.origin(forKey: "theme") == "file " + file.url.path)
        settings.$theme.reset()
        #expect(file.value(forKey: "theme") == nil)
        #expect(store.origin(forKey: "theme") == nil)
    }

    @Test func aWritableStoreOutsideTheLayersIsReadLast() {
        let defaults = InMemoryStore(["theme": .string("light"), "pageSize": .int(1)])
        let writable = InMemoryStore(["pageSize": .int(2)])
        let store = LayeredStore([defaults], writingTo: writable)
        #expect(store.layers.count == 2)
        #expect(store.value(forKey: "pageSize") == .int(1))
        #expect(store.value(forKey: "theme") == .string("light"))
        #expect(Set(store.keys()) == ["theme", "pageSize"])
    }

    @Test func aFailedWriteThrowsTheWritableLayersError() throws {
        let environment = EnvironmentStore(prefix: "APP", environment: [:])
        let store = LayeredStore([environment], writingTo: environment)
        let error = try #require(throws: StorageError.self) { try ToolSettings(store: store).$pageSize.save(3) }
        #expect(error.code == .readOnly)
        #expect(store.value(forKey: "pageSize") == nil)
    }

    @Test func updateIsAtomicOnTheWritableLayer() async throws {
        let file = try TemporaryFileStore()
        let store = LayeredStore([EnvironmentStore(prefix: "APP", environment: [:]), file], writingTo: file)
        let settings = ToolSettings(store: store)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask { try? settings.$pageSize.update { $0 += 1 } }
            }
        }
        #expect(settings.pageSize == 70)
        #expect(try file.reopened().value(forKey: "pageSize") == .int(70))
    }

    @Test func updateStartsFromTheWritableOrALowerLayerAndWritesOnlyChanges() throws {
        let file = InMemoryStore()
        let defaults = InMemoryStore(["pageSize": .int(100)])
        let environment = EnvironmentStore(prefix: "APP", environment: ["APP_THEME": "dark"])
        let store = LayeredStore([environment, file, defaults], writingTo: file)
        let settings = ToolSettings(store: store)
        try settings.$pageSize.update { $0 += 1 }
        #expect(file.value(forKey: "pageSize") == .int(101))
        let theme = try settings.$theme.update { $0 }
        #expect(theme == .system) // the default: the environment's value is an override
        #expect(settings.theme == .dark)
        #expect(file.value(forKey: "theme") == nil) // the environment's value is not copied
    }

    @Test func changesDeliverOnlyChangesOfTheEffectiveValue() async throws {
        let top = InMemoryStore(["theme": .string("dark")])
        let file = InMemoryStore()
        let store = LayeredStore([top, file], writingTo: file)
        let changes = store.changes()
        try file.setValue(.string("light"), forKey: "theme") // hidden by `top`: nothing
        try file.setValue(.int(3), forKey: "pageSize") // delivered
        try top.setValue(nil, forKey: "theme") // the file's value shows: delivered
        try top.setValue(.string("light"), forKey: "theme") // same effective value: nothing
        try file.setValue(nil, forKey: "pageSize") // delivered as removal
        var received: [StoredChange] = []
        for await change in changes {
            received.append(change)
            if received.count == 3 { break }
        }
        #expect(
            Set(received) == [
                StoredChange(key: "pageSize", value: .int(3)),
                StoredChange(key: "theme", value: .string("light")),
                StoredChange(key: "pageSize", value: nil),
            ])
        #expect(received.filter { $0.key == "pageSize" }.map(\.value) == [.int(3), nil])
    }

    @Test func wrapperUpdatesWorkThroughTheLayers() async throws {
        let file = try TemporaryFileStore()
        let store = LayeredStore([EnvironmentStore(prefix: "APP", environment: [:]), file], writingTo: file)
        let settings = ToolSettings(store: store)
        var iterator = settings.$pageSize.updates.makeAsyncIterator()
        #expect(await iterator.next() == 20)
        settings.pageSize = 30
        #expect(await iterator.next() == 30)
        settings.$pageSize.reset()
        #expect(await iterator.next() == 20)
    }

    @Test func subscriptionsEndWhenTheConsumerStops() async throws {
        let file = InMemoryStore()
        let store = LayeredStore([file], writingTo: file)
        do {
            let changes = store.changes()
            try file.setValue(.int(1), forKey: "a")
            for await _ in changes { break }
        }
        await file.waitForSubscriberCount(0)
        #expect(file.subscriberCount == 0)
    }
}

/// A store that claims a location, to test how file locations are described.
private final class LocatedStore: Storable {
    let inner: InMemoryStore
    let location: String?

    init(wrapping inner: InMemoryStore, location: String) {
        self.inner = inner
        self.location = location
    }

    func value(forKey key: String) -> StoredValue? { inner.value(forKey: key) }
    func setValue(_ value: StoredValue?, forKey key: String) throws { try inner.setValue(value, forKey: key) }
    func keys() -> [String] { inner.keys() }
    func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try inner.update(forKey: key, body)
    }
    func changes() -> AsyncStream<StoredChange> { inner.changes() }
}

extension String {
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
