import Foundation
import StoredSettings
import StoredSettingsEtcd
import Testing

/// A write that returns is committed in etcd, even when the store's snapshot is stale.
///
/// Store `first` watches a follower and `second` writes through the leader, so the leader
/// acknowledges `second`'s write before the follower has sent `first` its event: `first`'s next
/// write runs against a stale snapshot. Each round is read back from etcd itself, by a third
/// store asking the cluster.
@Suite(.timeLimit(.hangGuard))
struct EtcdWriteGuaranteeTests {
    static let rounds = 50

    /// A three-member cluster, a store on a follower, a store on the leader, and a reader.
    static func storesOnFollowerAndLeader() async throws -> (
        EtcdCluster, first: EtcdStore, second: EtcdStore, reader: EtcdStore
    ) {
        let cluster = try await EtcdCluster.start(size: 3)
        let leader = try await cluster.leader()
        let follower = try #require(cluster.members.first { $0.name != leader.name })
        let first = try EtcdStore(configuration: .init(endpoints: [follower.endpoint], prefix: "app"))
        let second = try EtcdStore(configuration: .init(endpoints: [leader.endpoint], prefix: "app"))
        let reader = try EtcdStore(configuration: .init(endpoints: cluster.endpoints, prefix: "app"))
        return (cluster, first, second, reader)
    }

    @Test func aSetEqualToAStaleSnapshotIsCommitted() async throws {
        let (cluster, first, second, reader) = try await Self.storesOnFollowerAndLeader()
        defer { cluster.shutDown() }
        var lost = 0
        for _ in 0..<Self.rounds {
            try first.setValue(.int(1), forKey: "x")
            try second.setValue(.int(2), forKey: "x")
            try first.setValue(.int(1), forKey: "x")
            if try reader.committedValue(forKey: "x") != .int(1) { lost += 1 }
        }
        #expect(lost == 0, "\(lost) of \(Self.rounds) sets returned and etcd kept the other store's value")
    }

    @Test func aDeleteOfAKeyAStaleSnapshotLacksIsCommitted() async throws {
        let (cluster, first, second, reader) = try await Self.storesOnFollowerAndLeader()
        defer { cluster.shutDown() }
        var lost = 0
        for _ in 0..<Self.rounds {
            try first.setValue(nil, forKey: "x")
            try second.setValue(.int(2), forKey: "x")
            try first.setValue(nil, forKey: "x")
            if try reader.committedValue(forKey: "x") != nil { lost += 1 }
        }
        #expect(lost == 0, "\(lost) of \(Self.rounds) deletes returned and etcd kept the other store's value")
    }

    @Test func anUpdateLeavingAStaleSnapshotsValueIsCommitted() async throws {
        let (cluster, first, second, reader) = try await Self.storesOnFollowerAndLeader()
        defer { cluster.shutDown() }
        var lost = 0
        for round in 0..<Self.rounds {
            // Even rounds set the value the stale snapshot holds; odd rounds remove the key it lacks.
            let value: StoredValue? = round.isMultiple(of: 2) ? .int(1) : nil
            try first.setValue(value, forKey: "x")
            try second.setValue(.int(2), forKey: "x")
            try first.update(forKey: "x") { $0 = value }
            if try reader.committedValue(forKey: "x") != value { lost += 1 }
        }
        #expect(lost == 0, "\(lost) of \(Self.rounds) updates returned and etcd kept the other store's value")
        #expect(first.value(forKey: "x") == nil)
    }
}
