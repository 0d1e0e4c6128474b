import Foundation
import StoredSettings
import StoredSettingsEtcd
import StoredSettingsTestSupport
import Testing

/// A frozen member and a cluster without quorum are noticed: the watch, told the members'
/// progress-notification interval, counts a member that sends nothing for a few intervals as
/// lost and resumes on another; a member that lost its leader ends the watch.
///
/// Members are frozen with SIGSTOP: their sockets stay open and nothing is answered.
@Suite(.timeLimit(.hangGuard))
struct EtcdFailoverTests {
    /// A store on every member, asking `first` first, told four times the cluster's progress
    /// interval: a silence of 3 intervals (6 s) ends a watch, which a frozen member reaches and a
    /// healthy one on a busy machine does not (at 1.5 s, healthy members' watches ended too, and
    /// the endpoint that failed first, the frozen one, came first again).
    ///
    /// The open reads from `first` alone, so the watch starts there: with the first read raced,
    /// the watch went to whichever member answered first while writes went to `first`, and a
    /// write to the frozen member then rightly failed as "may or may not have been committed".
    static func store(in cluster: EtcdCluster, askingFirst first: EtcdCluster.Member) throws -> EtcdStore {
        let others = cluster.members.filter { $0.name != first.name }
        var configuration = try EtcdStore.Configuration(
            endpoints: ([first] + others).map(\.endpoint), prefix: "app", requestTimeout: 2,
            maximumReconnectDelay: 0.2, progressNotifyInterval: 4 * EtcdCluster.progressNotifyInterval)
        configuration.racesFirstRead = false
        return try EtcdStore(configuration: configuration)
    }

    @Test func frozenWatchedMemberIsNoticedAndTheWatchAndWritesMoveToAHealthyOne() async throws {
        let cluster = try await EtcdCluster.start(size: 3)
        defer { cluster.shutDown() }
        let leader = try await cluster.leader()
        let frozen = try #require(cluster.members.first { $0.name != leader.name })
        let others = cluster.members.filter { $0.name != frozen.name }
        let store = try Self.store(in: cluster, askingFirst: frozen)
        let changes = store.changes()
        try store.setValue(.int(1), forKey: "x")
        #expect(await firstChanges(1, of: changes) == [StoredChange(key: "x", value: .int(1))])

        cluster.freeze(frozen)
        _ = try await cluster.etcdctl(["put", "app/x", "2"], through: others)
        #expect(await firstChanges(1, of: changes) == [StoredChange(key: "x", value: .int(2))])

        // The store remembers the member that went silent: its next write goes to a healthy one.
        try await onOwnThread { try store.setValue(.int(3), forKey: "x") }
        #expect(try await cluster.etcdctl(["get", "app/x", "--print-value-only"], through: others) == "3\n")
        cluster.thaw(frozen)
    }

    @Test func quorumLossIsNoticedByTheWatchOnTheMemberLeftAlone() async throws {
        let cluster = try await EtcdCluster.start(size: 3)
        defer { cluster.shutDown() }
        let alone = cluster.members[0]
        let store = try Self.store(in: cluster, askingFirst: alone)
        try store.setValue(.int(1), forKey: "x")
        await store.waitUntilConnected(true)

        for member in cluster.members where member.name != alone.name { cluster.freeze(member) }
        await store.waitUntilConnected(false)
        #expect(store.disconnectedSince != nil)
        #expect(store.value(forKey: "x") == .int(1))
        for member in cluster.members { cluster.thaw(member) }
    }
}
