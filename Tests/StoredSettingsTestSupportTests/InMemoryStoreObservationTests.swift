import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

@Suite(.timeLimit(.hangGuard))
struct InMemoryStoreObservationTests {
    @Test func subscriberCountFollowsConsumers() async {
        let store = InMemoryStore()
        #expect(store.subscriberCount == 0)
        let consumer = Task { for await _ in store.changes() {} }
        await store.waitForSubscriberCount(1)
        #expect(store.subscriberCount == 1)
        consumer.cancel()
        await consumer.value
        #expect(store.subscriberCount == 0)
    }

    @Test func seededKeysAreNotValidatedButWritesAre() {
        let store = InMemoryStore(["": .int(1)])
        #expect(store.value(forKey: "") == .int(1))
        #expect(throws: StorageError.self) { try store.setValue(.int(2), forKey: "") }
    }
}
