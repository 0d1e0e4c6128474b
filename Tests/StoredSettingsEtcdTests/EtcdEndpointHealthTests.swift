import Foundation
import StoredSettings
import StoredSettingsEtcd
import StoredSettingsTestSupport
import Testing

/// Requests go to members that answer: a store opened while the member listed first is frozen
/// asks every member at once and goes on with the one that answered, and a member without a
/// leader refuses at once (the require-leader header) instead of holding a request.
///
/// Request timeouts here are a day, far past the suite's hang guard: a request sent to a
/// frozen member would hang the test, and the guard would fail it.
@Suite(.timeLimit(.hangGuard))
struct EtcdEndpointHealthTests {
    static let day: TimeInterval = 86_400

    @Test func aStoreOpenedWhileTheFirstListedMemberIsFrozenServesAndWritesThroughTheOthers() async throws {
        let cluster = try await EtcdCluster.start(size: 3)
        defer { cluster.shutDown() }
        _ = try await cluster.etcdctl(["put", "app/x", "1"])
        let frozen = cluster.members[0]
        let others = Array(cluster.members.dropFirst())
        cluster.freeze(frozen)
        let store = try await onOwnThread {
            try EtcdStore(
                configuration: .init(
                    endpoints: cluster.endpoints, prefix: "app", requestTimeout: Self.day,
                    progressNotifyInterval: EtcdCluster.progressNotifyInterval))
        }
        #expect(store.value(forKey: "x") == .int(1))
        try await onOwnThread { try store.setValue(.int(2), forKey: "x") }
        try await onOwnThread { try store.update(forKey: "x") { $0 = .int(3) } }
        #expect(try await cluster.etcdctl(["get", "app/x", "--print-value-only"], through: others) == "3\n")
        cluster.thaw(frozen)
    }

    /// The members left answer "no leader" until they elect one: the store asks them again
    /// instead of settling for the frozen leader's answer, which never comes.
    @Test func aStoreOpenedWhileTheLeaderIsFrozenWaitsForTheNextLeaderNotTheFrozenOne() async throws {
        let cluster = try await EtcdCluster.start(size: 3)
        defer { cluster.shutDown() }
        _ = try await cluster.etcdctl(["put", "app/x", "1"])
        let leader = try await cluster.leader()
        let others = cluster.members.filter { $0.name != leader.name }
        cluster.freeze(leader)
        let store = try await onOwnThread {
            try EtcdStore(
                configuration: .init(
                    endpoints: ([leader] + others).map(\.endpoint), prefix: "app", requestTimeout: Self.day))
        }
        #expect(store.value(forKey: "x") == .int(1))
        try await onOwnThread { try store.setValue(.int(2), forKey: "x") }
        #expect(try await cluster.etcdctl(["get", "app/x", "--print-value-only"], through: others) == "2\n")
        cluster.thaw(leader)
    }

    @Test func storedReadAnswersWhileTheFirstListedMemberIsFrozen() async throws {
        let cluster = try await EtcdCluster.start(size: 3)
        defer { cluster.shutDown() }
        _ = try await cluster.etcdctl(["put", "daybook/pageSize", "25"])
        cluster.freeze(cluster.members[0])
        let read = try await EtcdProgram.run(
            try EtcdProgram.built("stored"), ["read", cluster.address(prefix: "daybook"), "pageSize"],
            environment: ["STORED_ETCD_REQUEST_TIMEOUT": "\(Self.day)"])
        #expect(read.exitCode == 0, "\(read.errors)")
        #expect(read.output == "25\n", "\(read.errors)")
        cluster.thaw(cluster.members[0])
    }

    @Test func writesUnderQuorumLossAreRefusedAsNotAppliedNamingTheMissingLeader() async throws {
        let cluster = try await EtcdCluster.start(size: 3)
        defer { cluster.shutDown() }
        let alone = cluster.members[0]
        let store = try EtcdStore(
            configuration: .init(endpoints: cluster.endpoints, prefix: "app", requestTimeout: Self.day))
        try store.setValue(.int(1), forKey: "x")
        for member in cluster.members where member.name != alone.name { cluster.stop(member) }
        try await cluster.waitUntilLeaderless(alone)

        let writes: [@Sendable () throws -> Void] = [
            { try store.setValue(.int(2), forKey: "x") }, { try store.update(forKey: "x") { $0 = .int(3) } },
        ]
        for write in writes {
            let error = await #expect(throws: StorageError.self) { try await onOwnThread(write) }
            #expect(error?.code == .io, "\(String(describing: error))")
            #expect(error?.message?.contains("no leader") == true, "\(String(describing: error))")
            #expect(error?.message?.contains("nothing was changed") == true, "\(String(describing: error))")
        }
        #expect(store.value(forKey: "x") == .int(1))
    }
}
