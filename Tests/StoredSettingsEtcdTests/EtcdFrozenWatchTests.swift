import Foundation
import StoredSettings
import StoredSettingsEtcd
import StoredSettingsTestSupport
import Testing

/// With the default configuration (no progress interval, so an idle watch is silent), a
/// member frozen under the watch is noticed by the store's own probe and left.
@Suite(.timeLimit(.hangGuard))
struct EtcdFrozenWatchTests {
    @Test func watchOnAFrozenMemberMovesOnWithoutAProgressInterval() async throws {
        let (cluster, frozen, others) = try await EtcdUnknownOutcomeTests.clusterWithFollower()
        defer { cluster.shutDown() }
        let store = try EtcdUnknownOutcomeTests.store(askingFirst: frozen, then: others)
        #expect(store.configuration.progressNotifyInterval == nil)
        try await EtcdUnknownOutcomeTests.awaitWatches(of: [store], in: cluster)
        let changes = store.changes()
        cluster.freeze(frozen)
        _ = try await cluster.etcdctl(["put", "app/x", "2"], through: others)

        // Delivered once the watch has left the frozen member for another.
        let seen = await firstChanges(1, of: changes)
        #expect(seen == [StoredChange(key: "x", value: .int(2))])
        #expect(store.value(forKey: "x") == .int(2))
        #expect(store.disconnectedSince == nil)
        cluster.thaw(frozen)
    }
}
