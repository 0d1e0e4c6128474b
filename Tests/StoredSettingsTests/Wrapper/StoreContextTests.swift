import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

private struct FlagSettings: SettingsGroup {
    @Stored("flag", default: false) var flag: Bool
    @Stored("pinned", default: false, store: pinnedStore) var pinned: Bool
}

private let pinnedStore = InMemoryStore()

/// A group whose `init()` creates a nested group on a store of its own, and one on the store
/// its settings take from the context.
private struct NestingSettings: SettingsGroup {
    static let innerStore = InMemoryStore()
    @Stored("outer", default: 0) var outer: Int
    var rebound = StoreContext.withStore(NestingSettings.innerStore) { FlagSettings() }
    var inherited = FlagSettings()
}

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

    @Test func theInnermostBindingWinsAndEndsWithItsOperation() {
        let store = InMemoryStore()
        let outerBound = InMemoryStore()
        let (settings, after) = StoreContext.withStore(outerBound) {
            (NestingSettings(store: store), Stored("after", default: 0))
        }
        #expect(settings.$outer.store === store)
        #expect(settings.rebound.$flag.store === NestingSettings.innerStore)
        #expect(settings.inherited.$flag.store === store)
        #expect(after.store === outerBound)
    }

    @Test func aTaskStartedInsideWithStoreInheritsItsStore() async {
        let store = InMemoryStore()
        let task = StoreContext.withStore(store) { Task { Stored("inTask", default: 0).store } }
        #expect(await task.value === store)
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
