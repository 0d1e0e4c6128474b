import Foundation
import StoredSettings
import StoredSettingsEtcd
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `EtcdStore` through outages: a member stopped and restarted, a member of three killed,
/// a compaction past the watch's revision, and authentication.
@Suite(.timeLimit(.hangGuard))
struct EtcdOutageTests {
    @Test func memberStoppedAndRestartedWhileWritingAndWatchingMissesAndRepeatsNoChange() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let member = cluster.members[0]
        let store = try EtcdStore(
            configuration: .init(endpoints: cluster.endpoints, prefix: "app", maximumReconnectDelay: 0.2))
        let changes = store.changes()
        try store.setValue(.int(1), forKey: "a")

        cluster.stop(member)
        await store.waitUntilConnected(false)
        #expect(store.disconnectedSince != nil)
        #expect(store.value(forKey: "a") == .int(1))
        let error = try #require(throws: StorageError.self) { try store.setValue(.int(2), forKey: "a") }
        #expect(error.code == .io)
        #expect(error.description.contains(member.endpoint), "\(error)")
        #expect(throws: StorageError.self) { try store.update(forKey: "a") { $0 = .int(99) } }
        #expect(store.value(forKey: "a") == .int(1))

        try await cluster.restart(member)
        await store.waitUntilConnected(true)
        #expect(store.disconnectedSince == nil)
        _ = try await cluster.etcdctl(["put", "app/b", "7"])
        try store.setValue(.int(3), forKey: "a")
        let seen = await firstChanges(3, of: changes)
        #expect(
            seen == [
                StoredChange(key: "a", value: .int(1)),
                StoredChange(key: "b", value: .int(7)),
                StoredChange(key: "a", value: .int(3)),
            ])
        // The value etcd holds for 'a' now (`--rev=0` is the newest revision), the last write's; that the
        // writes during the outage never reached etcd, the changes above show (no 2, no 99).
        let history = try await cluster.etcdctl(["get", "app/a", "--rev=0", "--print-value-only"])
        #expect(history == "3\n")
    }

    @Test func threeMemberClusterWithOneKilledKeepsReadingWritingAndWatching() async throws {
        let cluster = try await EtcdCluster.start(size: 3)
        defer { cluster.shutDown() }
        let store = try EtcdStore(
            configuration: .init(endpoints: cluster.endpoints, prefix: "app", maximumReconnectDelay: 0.2))
        let changes = store.changes()
        try store.setValue(.int(1), forKey: "x")
        cluster.stop(cluster.members[0], signal: SIGKILL)
        // A put sent while the others still elect a leader may time out, and is then reported
        // as perhaps committed, never sent again: write once the two serve again.
        for member in cluster.members.dropFirst() { try await cluster.waitUntilHealthy(member) }
        try store.setValue(.int(2), forKey: "x")
        #expect(store.value(forKey: "x") == .int(2))
        try store.update(forKey: "x") { value in
            if case .int(let number)? = value { value = .int(number + 1) }
        }
        _ = try await cluster.etcdctl(["put", "app/y", "5"], through: Array(cluster.members.dropFirst()))
        let seen = await firstChanges(4, of: changes)
        #expect(
            seen == [
                StoredChange(key: "x", value: .int(1)),
                StoredChange(key: "x", value: .int(2)),
                StoredChange(key: "x", value: .int(3)),
                StoredChange(key: "y", value: .int(5)),
            ])
        #expect(store.value(forKey: "y") == .int(5))
    }

    @Test func compactionPastTheWatchRevisionResynchronizesAndDeliversTheDifferences() async throws {
        let cluster = try await EtcdCluster.start(size: 3)
        defer { cluster.shutDown() }
        let watched = cluster.members[0]
        let others = Array(cluster.members.dropFirst())
        let store = try EtcdStore(
            configuration: .init(endpoints: [watched.endpoint], prefix: "app", maximumReconnectDelay: 0.2))
        let changes = store.changes()
        try store.setValue(.int(1), forKey: "k")
        try store.setValue(.int(1), forKey: "gone")
        #expect(await firstChanges(2, of: changes).count == 2)

        cluster.stop(watched)
        await store.waitUntilConnected(false)
        _ = try await cluster.etcdctl(["put", "app/k", "2"], through: others)
        _ = try await cluster.etcdctl(["put", "app/k", "3"], through: others)
        _ = try await cluster.etcdctl(["put", "app/new", "9"], through: others)
        _ = try await cluster.etcdctl(["del", "app/gone"], through: others)
        let status = try await cluster.etcdctl(["get", "app/k", "-w", "json"], through: others)
        let header = try #require(
            (try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any])?["header"] as? [String: Any])
        let revision = try #require((header["revision"] as? NSNumber)?.int64Value)
        _ = try await cluster.etcdctl(["compaction", String(revision)], through: others)

        try await cluster.restart(watched)
        let seen = await firstChanges(3, of: changes)
        #expect(
            Set(seen) == [
                StoredChange(key: "k", value: .int(3)),
                StoredChange(key: "new", value: .int(9)),
                StoredChange(key: "gone", value: nil),
            ])
        #expect(store.value(forKey: "k") == .int(3))
        #expect(store.keys().sorted() == ["k", "new"])
    }

    @Test func authenticationEnabledWithNoUserConfiguredIsAnAuthenticationError() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        _ = try await cluster.etcdctl(["user", "add", "root:correct-horse"])
        _ = try await cluster.etcdctl(["auth", "enable"])
        let error = try #require(throws: StorageError.self) {
            try EtcdStore(configuration: .init(endpoints: cluster.endpoints, prefix: "app"))
        }
        #expect(error.code == .authenticationFailed, "\(error)")
        #expect(error.description.contains("no user is configured"), "\(error)")
    }

    @Test func wrongPasswordIsAnAuthenticationErrorNamingTheUserNotThePassword() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        _ = try await cluster.etcdctl(["user", "add", "root:correct-horse"])
        _ = try await cluster.etcdctl(["auth", "enable"])
        let error = try #require(throws: StorageError.self) {
            try EtcdStore(
                configuration: .init(
                    endpoints: cluster.endpoints, prefix: "app", user: "root", password: "wrong-battery"))
        }
        #expect(error.code == .authenticationFailed)
        #expect(error.description.contains("'root'"), "\(error)")
        #expect(!error.description.contains("wrong-battery"))

        let store = try EtcdStore(
            configuration: .init(endpoints: cluster.endpoints, prefix: "app", user: "root", password: "correct-horse"))
        let changes = store.changes()
        try store.setValue(.string("on"), forKey: "flag")
        _ = try await cluster.etcdctl(["--user=root:correct-horse", "put", "app/other", "1"])
        #expect(
            await firstChanges(2, of: changes) == [
                StoredChange(key: "flag", value: .string("on")),
                StoredChange(key: "other", value: .int(1)),
            ])
    }
}
