import Foundation
import StoredSettings
import Testing

/// A read decides whether a value is stored or only registered without copying the defaults'
/// domains each time: once per key and value, again after a write changes the key.
@Suite(.timeLimit(TestScale.hangGuard))
struct UserDefaultsDomainReadTests {
    @Test func repeatedReadsOfAnUnchangedKeyCopyTheDomainsOnce() throws {
        let (defaults, store, folder) = try Self.countingStore()
        defer { withExtendedLifetime(folder) {} }
        try store.setValue(.int(3), forKey: "count")
        // Foundation's own `object(forKey:)` may copy a domain: that is the floor.
        defaults.domainCopies.withLock { $0 = 0 }
        for _ in 0..<50 { _ = defaults.object(forKey: "count") }
        let floor = defaults.domainCopies.withLock { $0 }
        defaults.domainCopies.withLock { $0 = 0 }
        for _ in 0..<50 {
            #expect(store.value(forKey: "count") == .int(3))
        }
        // One decision: the argument domain and at most three persistent domains.
        #expect(defaults.domainCopies.withLock { $0 } <= floor + 4)
    }

    @Test func aWriteOfTheRegisteredValueIsStoredAfterReadsSawItRegistered() throws {
        let (defaults, store, folder) = try Self.countingStore()
        defer { withExtendedLifetime(folder) {} }
        // A name no other test uses: the registration domain may be the process's.
        let key = "registered-\(UUID().uuidString)"
        defaults.register(defaults: [key: 1])
        let count = Stored(key, default: 5, store: store)
        #expect(!count.hasStoredValue)
        #expect(count.wrappedValue == 1)
        count.wrappedValue = 1
        #expect(count.hasStoredValue)
        #expect(count.wrappedValue == 1)
        count.reset()
        #expect(!count.hasStoredValue)
        #expect(count.wrappedValue == 1)
    }

    @Test func aValueChangedBehindTheStoreIsDecidedAgain() throws {
        let (defaults, store, folder) = try Self.countingStore()
        defer { withExtendedLifetime(folder) {} }
        // A name no other test uses: the registration domain may be the process's.
        let key = "registered-\(UUID().uuidString)"
        defaults.register(defaults: [key: 1])
        #expect(store.value(forKey: key) == nil)
        // Written and removed through the defaults themselves, not the store. On Linux a
        // removal not followed by `synchronize()` may go on reading as the removed value while
        // another thread synchronizes any suite (a Foundation defect, see Platform notes).
        defaults.set(2, forKey: key)
        #expect(store.value(forKey: key) == .int(2))
        defaults.removeObject(forKey: key)
        defaults.synchronize()
        #expect(store.value(forKey: key) == nil)
    }

    /// Foundation on Linux may go on reading a removed value while another thread synchronizes
    /// a suite, until the suite's own next `synchronize()`: every write of a store makes one.
    @Test func aRemovalReadsAsRemovedWhileAnotherThreadSynchronizesASuite() throws {
        let (defaults, store, folder) = try Self.countingStore()
        defer { withExtendedLifetime(folder) {} }
        let key = "registered-\(UUID().uuidString)"
        defaults.register(defaults: [key: 1])
        let otherSuite = folder.url.appendingPathComponent("other").path
        let stop = Lock(false)
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let other = UserDefaults(suiteName: otherSuite)
            var round = 0
            while !stop.withLock({ $0 }) {
                round += 1
                other?.set(round, forKey: "noise")
                other?.synchronize()
            }
            stopped.signal()
        }
        defer {
            stop.withLock { $0 = true }
            stopped.wait()
        }
        for round in 0..<300 {
            try store.setValue(.int(Int64(round + 2)), forKey: key)
            try store.setValue(nil, forKey: key)
            #expect(store.value(forKey: key) == nil, "round \(round)")
        }
    }

    @Test func aStoreOnASuiteInstancePassedInReadsWhatTheSuiteStores() throws {
        let folder = try ScratchFolder()
        defer { withExtendedLifetime(folder) {} }
        let defaults = try #require(UserDefaults(suiteName: folder.url.appendingPathComponent("suite").path))
        let store = UserDefaultsStore(defaults)
        try store.setValue(.int(3), forKey: "count")
        #expect(store.value(forKey: "count") == .int(3))
        #expect(Stored("count", default: 5, store: store).wrappedValue == 3)
    }

    @Test func aRegisteredValueStoredBehindTheStoreIsRemovedByReset() throws {
        let (defaults, store, folder) = try Self.countingStore()
        defer { withExtendedLifetime(folder) {} }
        let key = "registered-\(UUID().uuidString)"
        defaults.register(defaults: [key: 1])
        let count = Stored(key, default: 5, store: store)
        #expect(count.wrappedValue == 1)
        // The registered value itself, stored through the defaults (no notification on Linux).
        defaults.set(1, forKey: key)
        count.reset()
        #expect(defaults.persistentDomain(forName: store.suiteName ?? "")?[key] == nil)
        #expect(!count.hasStoredValue)
    }

    /// A store on a suite in a temporary folder whose defaults count the domain copies.
    private static func countingStore() throws -> (CountingDefaults, UserDefaultsStore, ScratchFolder) {
        let folder = try ScratchFolder()
        let name = folder.url.appendingPathComponent("suite").path
        let defaults = try #require(CountingDefaults(suiteName: name))
        return (defaults, UserDefaultsStore(defaults, domainName: name), folder)
    }
}

/// `UserDefaults` that counts the copies of its domains a caller asks for.
private final class CountingDefaults: UserDefaults {
    let domainCopies = Lock(0)

    override func persistentDomain(forName domainName: String) -> [String: Any]? {
        domainCopies.withLock { $0 += 1 }
        return super.persistentDomain(forName: domainName)
    }

    override func volatileDomain(forName domainName: String) -> [String: Any] {
        domainCopies.withLock { $0 += 1 }
        return super.volatileDomain(forName: domainName)
    }
}
