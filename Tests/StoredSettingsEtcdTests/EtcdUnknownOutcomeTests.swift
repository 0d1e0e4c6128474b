import Foundation
import StoredSettings
import StoredSettingsEtcd
import StoredSettingsTestSupport
import Testing

/// A write that reached a frozen member is never sent to another behind the caller's back: a
/// put or delete reports that it may or may not have been committed; an update settles its
/// outcome by sending its compare-and-swap again.
///
/// A follower is frozen with SIGSTOP after the stores opened on it first: the kernel still
/// accepts the connection and the request, and the member answers nothing until it is thawed.
@Suite(.timeLimit(.hangGuard))
struct EtcdUnknownOutcomeTests {
    /// A three-member cluster holding `app/x` = 1, a follower to freeze, and the other two.
    static func clusterWithFollower() async throws -> (EtcdCluster, EtcdCluster.Member, [EtcdCluster.Member]) {
        let cluster = try await EtcdCluster.start(size: 3)
        let leader = try await cluster.leader()
        let follower = try #require(cluster.members.first { $0.name != leader.name })
        _ = try await cluster.etcdctl(["put", "app/x", "1"])
        return (cluster, follower, cluster.members.filter { $0.name != follower.name })
    }

    /// A store that asks `first` before the others, giving up on an answer after 2 s (short,
    /// for the frozen member, and long enough for the others on a busy machine). Its first read
    /// is not raced, so `first` answers it and the watch and writes after it go there.
    ///
    /// Stores of one configuration share a session, and with it what they learned of each
    /// endpoint: `apart` gives the store a configuration of its own (a longer connection timeout,
    /// which only the open uses), so that it meets the frozen member itself.
    static func store(
        askingFirst first: EtcdCluster.Member, then others: [EtcdCluster.Member], apart: Bool = false
    ) throws -> EtcdStore {
        var configuration = try EtcdStore.Configuration(
            endpoints: ([first] + others).map(\.endpoint), prefix: "app", requestTimeout: 2)
        configuration.racesFirstRead = false
        if apart { configuration.connectionTimeout += 1 }
        return try EtcdStore(configuration: configuration)
    }

    /// Returns once every store's watch is created (it delivered a put made after the stores
    /// opened): a watch still connecting when the member freezes would, after its own timeout,
    /// make its store ask another member first.
    static func awaitWatches(of stores: [EtcdStore], in cluster: EtcdCluster) async throws {
        let streams = stores.map { $0.changes() }
        _ = try await cluster.etcdctl(["put", "app/watching", "1"])
        for stream in streams { _ = await firstChanges(1, of: stream) }
    }

    /// `app/x` as the members that answer hold it.
    static func held(in cluster: EtcdCluster, through members: [EtcdCluster.Member]) async throws -> String {
        try await cluster.etcdctl(["get", "app/x", "--print-value-only"], through: members)
    }

    @Test func putAndDeleteAFrozenMemberReceivedAreNotSentAgainAndMayOrMayNotHaveBeenCommitted() async throws {
        let (cluster, frozen, others) = try await Self.clusterWithFollower()
        defer { cluster.shutDown() }
        let store = try Self.store(askingFirst: frozen, then: others)
        // A store of its own for the delete: after the put, `store` asks a healthy member first.
        let deleting = try Self.store(askingFirst: frozen, then: others, apart: true)
        try await Self.awaitWatches(of: [store, deleting], in: cluster)
        cluster.freeze(frozen)

        let put = try await #require(throws: StorageError.self) {
            try await onOwnThread { try store.setValue(.int(2), forKey: "x") }
        }
        #expect(put.code == .outcomeUnknown, "\(put)")
        #expect(put.key == "x")
        #expect(put.description.contains("may or may not have been committed"), "\(put)")
        #expect(put.description.contains(frozen.endpoint), "\(put)")
        let afterPut = try await Self.held(in: cluster, through: others)
        #expect(afterPut == "1\n")

        let delete = try await #require(throws: StorageError.self) {
            try await onOwnThread { try deleting.setValue(nil, forKey: "x") }
        }
        #expect(delete.code == .outcomeUnknown, "\(delete)")
        let afterDelete = try await Self.held(in: cluster, through: others)
        #expect(afterDelete == "1\n")

        // The member that gave no answer is asked last now: the next write goes to a healthy one.
        try await onOwnThread { try store.setValue(.int(4), forKey: "z") }
        #expect(try await cluster.etcdctl(["get", "app/z", "--print-value-only"], through: others) == "4\n")

        // Thawed and serving again, the member is back in the cluster and the store writes on.
        cluster.thaw(frozen)
        try await cluster.waitUntilHealthy(frozen)
        try store.setValue(.int(3), forKey: "y")
        #expect(try await cluster.etcdctl(["get", "app/y", "--print-value-only"], through: others) == "3\n")
    }

    @Test func updateAFrozenMemberReceivedIsSettledByItsCompareAndSwapSentAgain() async throws {
        let (cluster, frozen, others) = try await Self.clusterWithFollower()
        defer { cluster.shutDown() }
        let winner = try Self.store(askingFirst: frozen, then: others)
        let late = try Self.store(askingFirst: frozen, then: others, apart: true)
        try await Self.awaitWatches(of: [winner, late], in: cluster)
        cluster.freeze(frozen)

        // Nothing changed `x` since the store read it: the copy sent again wins, once.
        try await onOwnThread { try winner.update(forKey: "x") { $0 = .int(5) } }
        let afterWin = try await Self.held(in: cluster, through: others)
        #expect(afterWin == "5\n")
        #expect(winner.value(forKey: "x") == .int(5))

        // `x` changed since `late` read it: the copy sent again fails its compare, and an
        // earlier copy could have won before that change, so the outcome is unknown.
        let error = try await #require(throws: StorageError.self) {
            try await onOwnThread { try late.update(forKey: "x") { $0 = .int(7) } }
        }
        #expect(error.code == .outcomeUnknown, "\(error)")
        #expect(error.description.contains("may or may not have been committed"), "\(error)")
        let afterLate = try await Self.held(in: cluster, through: others)
        #expect(afterLate == "5\n")

        cluster.thaw(frozen)
    }

    /// The leader freezes just before a put reaches a follower, which forwards it to the
    /// frozen leader, where it is lost; etcd would answer only after its own request timeout
    /// (7 s). Once the follower has a leader of a newer term, the put ends as "may or may not
    /// have been committed", though the store's request timeout is a day.
    @Test func putWhoseLeaderIsLostEndsOnceTheFollowerHasANewLeader() async throws {
        let (cluster, follower, others) = try await Self.clusterWithFollower()
        defer { cluster.shutDown() }
        let leader = try await cluster.leader()
        var configuration = try EtcdStore.Configuration(
            endpoints: ([follower] + others).map(\.endpoint), prefix: "app", requestTimeout: 86_400)
        configuration.racesFirstRead = false
        let store = try EtcdStore(configuration: configuration)
        try await Self.awaitWatches(of: [store], in: cluster)

        cluster.freeze(leader)
        let put = try await #require(throws: StorageError.self) {
            try await onOwnThread { try store.setValue(.int(2), forKey: "x") }
        }
        #expect(put.code == .outcomeUnknown, "\(put)")
        #expect(
            put.description.contains("\(follower.endpoint): no answer, and the member has had a new leader"), "\(put)")
        cluster.thaw(leader)
    }

    @Test func updateThatWritesNothingRunsAgainWhenTheCopySentAgainFindsTheKeyChanged() async throws {
        let (cluster, frozen, others) = try await Self.clusterWithFollower()
        defer { cluster.shutDown() }
        let store = try Self.store(askingFirst: frozen, then: others)
        try await Self.awaitWatches(of: [store], in: cluster)
        cluster.freeze(frozen)
        _ = try await cluster.etcdctl(["put", "app/x", "5"], through: others)

        // Its copies write nothing, so none can have been committed: the body runs again on
        // what etcd holds, instead of the outcome being unknown.
        let seen = try await onOwnThread { try store.update(forKey: "x") { value in value } }
        #expect(seen == .int(5))
        cluster.thaw(frozen)
    }
}
