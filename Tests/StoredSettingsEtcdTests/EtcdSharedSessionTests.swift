import Foundation
import StoredSettings
import StoredSettingsEtcd
import StoredSettingsTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stores of one configuration in a process share one snapshot and one watch; a store that
/// joins them still sees everything etcd committed before it opened.
@Suite(.timeLimit(.hangGuard))
struct EtcdSharedSessionTests {
    /// The member's count of open watchers (its `etcd_debugging_mvcc_watcher_total` gauge).
    func watchers(on member: EtcdCluster.Member) async throws -> Int? {
        let url = try #require(URL(string: "http://\(member.endpoint)/metrics"))
        let (data, _) = try await URLSession.shared.data(from: url)
        let line = String(decoding: data, as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix("etcd_debugging_mvcc_watcher_total ") }
        return line.flatMap { Double($0.split(separator: " ")[1]) }.map { Int($0) }
    }

    @Test func twentyStoresOfOneConfigurationKeepOneWatchAndAnotherPrefixItsOwn() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let configuration = try EtcdStore.Configuration(endpoints: cluster.endpoints, prefix: "app")
        let stores = try (0..<20).map { _ in try EtcdStore(configuration: configuration) }
        let other = try EtcdStore(configuration: .init(endpoints: cluster.endpoints, prefix: "other"))
        let streams = stores.map { $0.changes() } + [other.changes()]
        _ = try await cluster.etcdctl(["put", "app/x", "1"])
        _ = try await cluster.etcdctl(["put", "other/x", "1"])
        // Each stream delivering its change means each watch it hears from has been created.
        for stream in streams {
            #expect(await firstChanges(1, of: stream) == [StoredChange(key: "x", value: .int(1))])
        }
        #expect(try await watchers(on: cluster.members[0]) == 2)
        #expect(stores.allSatisfy { $0.value(forKey: "x") == .int(1) })
    }

    /// The shared watch is on the member listed first, frozen once the first store opened: it
    /// hears nothing of what the others commit, and the joining store must not serve its stale
    /// snapshot. A put makes the prefix's newest key newer than the snapshot; a delete alone
    /// leaves a key etcd no longer holds. The joining store asks every member at once, so the
    /// frozen one costs it nothing.
    @Test(arguments: [["put", "app/x", "2"], ["del", "app/y"]])
    func storeJoiningAnOpenOneSeesWhatEtcdCommittedBeforeItOpened(_ change: [String]) async throws {
        let cluster = try await EtcdCluster.start(size: 3)
        defer { cluster.shutDown() }
        // A follower, so that the others commit without an election.
        let leader = try await cluster.leader()
        let watched = try #require(cluster.members.first { $0.name != leader.name })
        let others = cluster.members.filter { $0.name != watched.name }
        var configuration = try EtcdStore.Configuration(
            endpoints: ([watched] + others).map(\.endpoint), prefix: "app", requestTimeout: 2)
        configuration.racesFirstRead = false
        let first = try EtcdStore(configuration: configuration)
        // `app/` itself is no setting: the snapshot leaves it out, and must not count it.
        _ = try await cluster.etcdctl(["put", "app/", "root"])
        try first.setValues(["x": .int(1), "y": .int(1)])
        await first.waitUntilConnected(true)

        cluster.freeze(watched)
        _ = try await cluster.etcdctl(change, through: others)
        let joiningConfiguration = configuration
        let joining = try await onOwnThread { try EtcdStore(configuration: joiningConfiguration) }
        let expected: [String: StoredValue] = change[0] == "put" ? ["x": .int(2), "y": .int(1)] : ["x": .int(1)]
        let held = joining.keys().compactMap { key in joining.value(forKey: key).map { (key, $0) } }
        #expect(Dictionary(uniqueKeysWithValues: held) == expected)
        #expect(first.value(forKey: "x") == expected["x"])
        cluster.thaw(watched)
    }
}
