import Foundation
import StoredSettings
import StoredSettingsEtcd
import Testing

/// The watch renews its authentication token when etcd cancels the watch for it.
@Suite(.timeLimit(.hangGuard))
struct EtcdTokenRenewalTests {
    @Test func watchRenewsTheTokenAMemberRestartInvalidatedAndKeepsDeliveringChanges() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let member = cluster.members[0]
        _ = try await cluster.etcdctl(["user", "add", "root:correct-horse"])
        _ = try await cluster.etcdctl(["auth", "enable"])
        let store = try EtcdStore(
            configuration: .init(
                endpoints: cluster.endpoints, prefix: "app", user: "root", password: "correct-horse",
                maximumReconnectDelay: 0.2))
        let changes = store.changes()
        _ = try await cluster.etcdctl(["--user=root:correct-horse", "put", "app/before", "1"])
        #expect(await firstChanges(1, of: changes) == [StoredChange(key: "before", value: .int(1))])

        // Simple tokens live in the member's memory: after a restart the store's token is unknown.
        cluster.stop(member)
        await store.waitUntilConnected(false)
        try await cluster.restart(member, user: "root:correct-horse")
        _ = try await cluster.etcdctl(["--user=root:correct-horse", "put", "app/after", "2"])
        #expect(await firstChanges(1, of: changes) == [StoredChange(key: "after", value: .int(2))])
        await store.waitUntilConnected(true)
    }
}
