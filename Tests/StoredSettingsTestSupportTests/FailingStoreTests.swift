import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

private enum Key: String, StorageKey { case theme, count }

private struct FailingSettings: SettingsGroup {
    @Stored(Key.theme, default: "system") var theme: String
    @Stored(Key.count, default: 0) var count: Int
}

@Suite(.timeLimit(.hangGuard))
struct FailingStoreTests {
    @Test func scriptedSetValueFailureThrowsAndLeavesTheWrappedStoreUntouched() throws {
        let inner = InMemoryStore(["theme": .string("dark")])
        let store = FailingStore(wrapping: inner)
        store.fail(.setValue, forKey: "theme", with: StorageError(.io, message: "disk full"))

        let error = #expect(throws: StorageError.self) { try store.setValue(.string("light"), forKey: "theme") }
        #expect(error?.code == .io)
        #expect(error?.key == "theme")
        #expect(error?.location == "memory")
        #expect(inner.values == ["theme": .string("dark")])
        #expect(store.failureCount == 1)
    }

    @Test func setterFailureIsReportedAndTheOldValueStays() {
        let store = FailingStore(wrapping: InMemoryStore(["theme": .string("dark")]))
        store.fail(.setValue, forKey: "theme")
        let settings = FailingSettings(store: store)
        let reported = ReportedErrors()

        reported.capture { settings.theme = "light" }

        #expect(settings.theme == "dark")
        #expect(reported.codes == [.io])
        #expect(reported.errors.first?.key == "theme")
    }

    @Test func scriptedUpdateFailureRunsTheBodyButWritesNothing() async throws {
        let inner = InMemoryStore(["count": .int(1)])
        let store = FailingStore(wrapping: inner)
        store.fail(.update, forKey: "count", with: StorageError(.readOnly))
        let settings = FailingSettings(store: store)
        var changes = inner.changes().makeAsyncIterator()

        var bodyRan = false
        let error = #expect(throws: StorageError.self) {
            try settings.$count.update {
                bodyRan = true
                $0 += 1
            }
        }
        #expect(error?.code == .readOnly)
        #expect(bodyRan)
        #expect(inner.values == ["count": .int(1)])
        // No change event: the next one is a later, known write.
        try inner.setValue(.int(9), forKey: "sentinel")
        #expect(await changes.next() == StoredChange(key: "sentinel", value: .int(9)))
    }

    @Test func otherKeysAndOperationsStillWork() throws {
        let store = FailingStore()
        store.fail(.setValue, forKey: "theme")
        try store.setValue(.int(2), forKey: "count")
        try store.update(forKey: "theme") { $0 = .string("light") }
        #expect(store.value(forKey: "count") == .int(2))
        #expect(store.value(forKey: "theme") == .string("light"))
        #expect(Set(store.keys()) == ["count", "theme"])
    }

    @Test func onceFailsOnlyTheNextCall() throws {
        let store = FailingStore()
        store.fail(.setValue, forKey: "count", times: .once)
        #expect(throws: StorageError.self) { try store.setValue(.int(1), forKey: "count") }
        try store.setValue(.int(2), forKey: "count")
        #expect(store.value(forKey: "count") == .int(2))
    }

    @Test(arguments: [0, 1, 3])
    func countFailsThatManyCalls(count: Int) {
        let store = FailingStore()
        store.fail(.setValue, times: .count(count))
        var failures = 0
        for index in 0..<5 {
            do { try store.setValue(.int(Int64(index)), forKey: "k") } catch { failures += 1 }
        }
        #expect(failures == count)
        #expect(store.failureCount == count)
    }

    @Test func noOperationListedFailsEveryWrite() {
        let store = FailingStore()
        store.fail(forKey: "count")
        #expect(throws: StorageError.self) { try store.setValue(.int(1), forKey: "count") }
        #expect(throws: StorageError.self) { try store.update(forKey: "count") { $0 = .int(1) } }
        #expect(store.value(forKey: "count") == nil)
    }

    @Test func removingFailuresMakesWritesWorkAgain() throws {
        let store = FailingStore()
        store.fail(.setValue, .update)
        #expect(throws: StorageError.self) { try store.setValue(.int(1), forKey: "count") }
        store.removeAllFailures()
        try store.setValue(.int(1), forKey: "count")
        #expect(store.value(forKey: "count") == .int(1))
    }

    @Test func failedWritesDeliverNoChange() async throws {
        let store = FailingStore()
        let changes = store.changes()
        store.fail(.setValue, forKey: "theme")
        #expect(throws: StorageError.self) { try store.setValue(.string("x"), forKey: "theme") }
        try store.setValue(.int(1), forKey: "count")
        var iterator = changes.makeAsyncIterator()
        #expect(await iterator.next() == StoredChange(key: "count", value: .int(1)))
    }

    @Test func scriptedErrorKeepsItsOwnKeyAndPath() {
        let store = FailingStore()
        store.fail(.setValue, with: StorageError(.io, key: "original", location: "/elsewhere"))
        let error = #expect(throws: StorageError.self) { try store.setValue(.int(1), forKey: "count") }
        #expect(error?.key == "original")
        #expect(error?.location == "/elsewhere")
    }
}
