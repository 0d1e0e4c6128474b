import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

// Every name of the public API contract, spelled as the design spells it. This file is
// mostly a compile check: renaming or reshaping a contract name breaks the build here.
// (The doubles' own behaviour is tested in StoredSettingsTestSupportTests.)

private enum Key: String, StorageKey { case autoReload, theme, lastOpened, profile, launchCount }

private enum Theme: String, StoredValueConvertible { case light, dark }

private struct Profile: Codable, Equatable, StoredValueConvertible { var name: String }

private struct ContractSettings: SettingsGroup {
    @Stored(Key.autoReload, default: false) var autoReload: Bool
    @Stored(Key.theme, default: .light) var theme: Theme
    @Stored(Key.lastOpened) var lastOpened: Date?
    @Stored(Key.profile, default: Profile(name: "")) var profile: Profile
    @Stored(Key.launchCount, default: 0) var launchCount: Int
}

/// A conformer written against the protocol exactly as the contract shows it.
private final class ContractStore: Storable {
    private let values = InMemoryStore()
    func value(forKey key: String) -> StoredValue? { values.value(forKey: key) }
    func setValue(_ value: StoredValue?, forKey key: String) throws { try values.setValue(value, forKey: key) }
    func keys() -> [String] { values.keys() }
    func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try values.update(forKey: key, body)
    }
    func changes() -> AsyncStream<StoredChange> { values.changes() }
}

@Suite(.timeLimit(TestScale.hangGuard))
struct ContractTests {
    @Test func keysAndValuesHaveTheirContractShapes() throws {
        let key: any StorageKey = Key.autoReload
        #expect(key.name == "autoReload")
        #expect("plain".name == "plain")
        let values: [StoredValue] = [
            .bool(true), .int(Int64.min), .double(-0.0), .string("s"), .data(Data()),
            .date(Date(timeIntervalSince1970: 0)),
            .array([]), .dictionary([:]),
        ]
        #expect(Set(values).count == values.count)
        let converted: any StoredValueConvertible = UInt64.max
        #expect(try UInt64(storedValue: converted.storedValue()) == UInt64.max)
        let change = StoredChange(key: "k", value: nil)
        #expect(change == StoredChange(key: "k", value: nil))
        #expect(change != StoredChange(key: "k", value: .int(2)))
        #expect(change != StoredChange(key: "other", value: nil))
    }

    @Test func storesHaveTheirContractInitializers() throws {
        let folder = try TemporaryFileStore()
        let stores: [any Storable] = [
            UserDefaultsStore.standard,
            UserDefaultsStore(UserDefaults.standard),
            try FileStore(url: folder.directory.appendingPathComponent("a.json"), format: .json),
            try FileStore(url: folder.directory.appendingPathComponent("b.plist")),
            EnvironmentStore(prefix: "CONTRACT", environment: [:]),
            EnvironmentStore(prefix: "CONTRACT"),
            CommandLineStore(arguments: ["--set", "autoReload=true"]),
            LayeredStore([InMemoryStore()], writingTo: InMemoryStore()),
            InMemoryStore(),
            InMemoryStore(["k": .int(1)]),
            folder,
            try folder.reopened(),
            ContractStore(),
            SpyStore(wrapping: InMemoryStore()),
            SpyStore(),
            FailingStore(),
        ]
        // Each one is a working store: nothing stored under a key nobody wrote, and the
        // command-line store answers with the value its arguments give.
        for store in stores {
            #expect(store.value(forKey: "contract.absent") == nil, "\(type(of: store))")
        }
        #expect(
            CommandLineStore(arguments: ["--set", "autoReload=true"]).value(forKey: "autoReload") == .string("true"))
        let suite = FileManager.default.temporaryDirectory.appendingPathComponent("ContractTests-\(UUID().uuidString)")
            .path
        let suiteStore = try UserDefaultsStore(suiteAtPath: suite)
        suiteStore.defaults.removePersistentDomain(forName: suite)
        #expect(throws: StorageError.self) { try FileStore(application: "../x") }
    }

    @Test func storableHasItsContractMembers() async throws {
        let store: any Storable = ContractStore()
        let stream: AsyncStream<StoredChange> = store.changes()
        try store.setValue(.int(1), forKey: "k")
        let doubled: Int64 = try store.update(forKey: "k") { value -> Int64 in
            guard case .int(let number)? = value else { return 0 }
            value = .int(number * 2)
            return number * 2
        }
        #expect(doubled == 2)
        #expect(store.keys() == ["k"])
        #expect(store.value(forKey: "k") == .int(2))
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == StoredChange(key: "k", value: .int(1)))
    }

    @Test func storedHasItsContractMembers() async throws {
        let store = InMemoryStore()
        let settings = ContractSettings(store: store)
        let count: Stored<Int> = settings.$launchCount
        #expect(count.key == "launchCount")
        #expect(count.defaultValue == 0)
        #expect(count.store === store)
        #expect(!count.hasStoredValue)
        settings.launchCount = 1
        try count.save(2)
        #expect(try count.load() == 2)
        #expect(
            try count.update { value -> Int in
                value += 1
                return value
            } == 3)
        count.reset()
        #expect(count.wrappedValue == 0)
        let updates: AsyncStream<Int> = count.updates
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        let explicit = Stored(Key.autoReload, default: true, store: store)
        let optional = Stored<Date?>(Key.lastOpened, store: store)
        #expect(explicit.wrappedValue && optional.wrappedValue == nil)
    }

    @Test func doublesHaveTheirContractShapes() throws {
        let spy = SpyStore(wrapping: InMemoryStore())
        try spy.setValue(.int(1), forKey: "k")
        #expect(spy.writes.count == 1)
        #expect(spy.wrapped.value(forKey: "k") == .int(1))
        let failing = FailingStore()
        failing.fail(.setValue, forKey: "k", with: StorageError(.io))
        #expect(throws: StorageError.self) { try failing.setValue(.int(1), forKey: "k") }
    }

    @Test func storeContextAndErrorsHaveTheirContractShapes() throws {
        let store = InMemoryStore()
        let resolved = StoreContext.withStore(store) { Stored(Key.theme, default: Theme.dark).store }
        #expect(resolved === store)
        let current: any Storable = StoreContext.defaultStore
        // The default store is a persistent one that says where it keeps its values.
        #expect(current.location?.isEmpty == false)
        let makeGroup: () -> ContractSettings = ContractSettings.init // SettingsGroup's init()
        _ = makeGroup
        var error = StorageError(.typeMismatch, key: "k", location: "/p")
        error.code = .io
        #expect(error.code == StorageError.Code.io && error.key == "k" && error.location == "/p")
        #expect(error == StorageError(.io, key: "k", location: "/p"))
        #expect(error != StorageError(.io, key: "other", location: "/p"))
        #expect(error.description.contains("'k'") && error.description.contains("/p"), "\(error.description)")
        let codes: [StorageError.Code] = [
            .typeMismatch, .dataCorrupted, .encodingFailed, .readOnly, .io, .invalidKey, .tooLarge, .nestingTooDeep,
        ]
        // Each code says something of its own.
        #expect(Set(codes.map { StorageError($0, key: "k").description }).count == codes.count)
    }
}
