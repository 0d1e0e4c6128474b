import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

private struct FlagSettings: SettingsGroup {
    @Stored("flag", default: false) var flag: Bool
    @Stored("pinned", default: false, store: pinnedStore) var pinned: Bool
}

private let pinnedStore = InMemoryStore()

@Suite(.timeLimit(TestScale.hangGuard))
struct StoreContextTests {
    @Test func settingsGroupInitWithStoreUsesThatStoreForEverySetting() {
        let store = InMemoryStore()
        let settings = FlagSettings(store: store)
        settings.flag = true
        #expect(store.value(forKey: "flag") == .bool(true))
        #expect(settings.$flag.store === store)
    }

    @Test func explicitStoreArgumentWinsOverTheGroupStore() {
        let store = InMemoryStore()
        let settings = FlagSettings(store: store)
        #expect(settings.$pinned.store === pinnedStore)
    }

    @Test func withStoreBindsTheStoreForWrappersCreatedInside() {
        let store = InMemoryStore()
        let setting = StoreContext.withStore(store) { Stored("inside", default: 1) }
        #expect(setting.store === store)
    }

    @Test func storeIsResolvedWhenTheWrapperIsCreatedNotWhenUsed() {
        let first = InMemoryStore()
        let second = InMemoryStore()
        let setting = StoreContext.withStore(first) { Stored("resolved", default: 1) }
        StoreContext.withStore(second) {
            setting.wrappedValue = 2
        }
        #expect(first.value(forKey: "resolved") == .int(2))
        #expect(second.value(forKey: "resolved") == nil)
    }

    @Test func parallelTasksEachSeeTheirOwnBoundStore() async {
        await withTaskGroup(of: Bool.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let store = InMemoryStore()
                    let settings = StoreContext.withStore(store) { FlagSettings() }
                    settings.flag = index.isMultiple(of: 2)
                    return settings.$flag.store === store
                        && store.value(forKey: "flag") == .bool(index.isMultiple(of: 2))
                }
            }
            for await ok in group { #expect(ok) }
        }
    }
}
