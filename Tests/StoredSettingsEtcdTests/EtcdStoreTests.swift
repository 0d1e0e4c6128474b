import Foundation
import StoredSettings
import StoredSettingsEtcd
import StoredSettingsTestSupport
import Testing

/// `EtcdStore` against a real etcd: each test starts its own member on free loopback ports.
@Suite(.timeLimit(.hangGuard))
struct EtcdStoreTests {
    @Test func readsWritesRemovesAndObservesSettings() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let store = try EtcdStore(configuration: .init(endpoints: cluster.endpoints, prefix: "app"))
        let changes = store.changes()
        #expect(store.value(forKey: "pageSize") == nil)
        try store.setValue(.int(5), forKey: "pageSize")
        #expect(store.value(forKey: "pageSize") == .int(5))
        try store.setValue(.string("dark"), forKey: "theme")
        try store.setValue(nil, forKey: "pageSize")
        #expect(store.value(forKey: "pageSize") == nil)
        #expect(store.keys() == ["theme"])
        let seen = await firstChanges(3, of: changes)
        #expect(
            seen == [
                StoredChange(key: "pageSize", value: .int(5)),
                StoredChange(key: "theme", value: .string("dark")),
                StoredChange(key: "pageSize", value: nil),
            ])
        #expect(try await cluster.etcdctl(["get", "app/theme", "--print-value-only"]) == "\"dark\"\n")
    }

    @Test func readsAValuePutByHandLikeAHandEditedFile() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        _ = try await cluster.etcdctl(["put", "app/pageSize", "7"])
        _ = try await cluster.etcdctl(["put", "app/theme", "dark"])
        _ = try await cluster.etcdctl(["put", "other/pageSize", "9"])
        let store = try EtcdStore(configuration: .init(endpoints: cluster.endpoints, prefix: "app"))
        #expect(store.value(forKey: "pageSize") == .int(7))
        #expect(store.value(forKey: "theme") == .string("dark"))
        #expect(Set(store.keys()) == ["pageSize", "theme"])
    }

    @Test func anotherProcessWriteReachesChanges() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let address = cluster.address(prefix: "app")
        let store = try EtcdStore(configuration: .init(address: address))
        let changes = store.changes()
        let run = try await EtcdProgram.run(
            try EtcdProgram.built("etcd-test-helper"), ["write", address, "launchCount", "42"])
        #expect(run.output == "wrote\n", "\(run.errors)")
        #expect(await firstChanges(1, of: changes) == [StoredChange(key: "launchCount", value: .int(42))])
        #expect(store.value(forKey: "launchCount") == .int(42))
    }

    @Test func fourProcessesIncrementingAHundredTimesEachCountFourHundred() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let address = cluster.address(prefix: "app")
        let helper = try EtcdProgram.built("etcd-test-helper")
        let children = try (0..<4).map { _ in try EtcdProgram.launch(helper, ["increment", address, "count", "100"]) }
        for child in children {
            let run = await child.finish()
            #expect(run.exitCode == 0 && run.output.hasSuffix("done 100\n"), "\(run.output) \(run.errors)")
        }
        let store = try EtcdStore(configuration: .init(address: address))
        #expect(store.value(forKey: "count") == .int(400))
    }

    @Test func updatesInOneProcessFromManyTasksLoseNoCount() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let first = try EtcdStore(configuration: .init(endpoints: cluster.endpoints, prefix: "app"))
        let second = try EtcdStore(configuration: .init(endpoints: cluster.endpoints, prefix: "app"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in [first, second] {
                group.addTask {
                    for _ in 0..<50 {
                        try store.update(forKey: "count") { value in
                            if case .int(let number)? = value { value = .int(number + 1) } else { value = .int(1) }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let third = try EtcdStore(configuration: .init(endpoints: cluster.endpoints, prefix: "app"))
        #expect(third.value(forKey: "count") == .int(100))
    }

    @Test func valueOverTheRequestLimitIsTooLargeAndChangesNothing() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let store = try EtcdStore(configuration: .init(endpoints: cluster.endpoints, prefix: "app"))
        try store.setValue(.string("small"), forKey: "blob")
        let big = StoredValue.data(Data(repeating: 7, count: 2 << 20))
        let error = try #require(throws: StorageError.self) { try store.setValue(big, forKey: "blob") }
        #expect(error.code == .tooLarge)
        #expect(error.key == "blob")
        // With the store's own check lifted, etcd's --max-request-bytes refuses it the same way.
        let unchecked = try EtcdStore(
            configuration: .init(endpoints: cluster.endpoints, prefix: "app", maximumRequestBytes: .max))
        let refused = try #require(throws: StorageError.self) { try unchecked.setValue(big, forKey: "blob") }
        #expect(refused.code == .tooLarge, "\(refused.description)")
        #expect(try await cluster.etcdctl(["get", "app/blob", "--print-value-only"]) == "\"small\"\n")
        #expect(store.value(forKey: "blob") == .string("small"))
    }

    @Test func noReachableEndpointAtOpenIsAnIOErrorNamingTheEndpoints() throws {
        let ports = try EtcdCluster.freePorts(2)
        let endpoints = ports.map { "127.0.0.1:\($0)" }
        let error = try #require(throws: StorageError.self) {
            try EtcdStore(configuration: .init(endpoints: endpoints, prefix: "app", connectionTimeout: 0.3))
        }
        #expect(error.code == .io)
        #expect(error.description.contains(endpoints.joined(separator: ",")), "\(error)")
        #expect(error.description.contains("connection refused"), "\(error)")
    }

    @Test func committedValueAsksTheClusterForWhatItHoldsNow() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let store = try EtcdStore(configuration: .init(endpoints: cluster.endpoints, prefix: "app"))
        _ = try await cluster.etcdctl(["put", "app/pageSize", "7"])
        _ = try await cluster.etcdctl(["put", "other/theme", "dark"])
        // Whether or not the watch has brought it to the snapshot yet.
        #expect(try store.committedValue(forKey: "pageSize") == .int(7))
        #expect(try store.committedValue(forKey: "theme") == nil)
        let error = try #require(throws: StorageError.self) { try store.committedValue(forKey: "") }
        #expect(error.code == .invalidKey)
    }

    @Test func layerOriginsNameTheClusterAndKey() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let fleet = try EtcdStore(configuration: .init(endpoints: cluster.endpoints, prefix: "app"))
        try fleet.setValue(.int(5), forKey: "pageSize")
        let local = InMemoryStore(["theme": .string("light")])
        let layered = LayeredStore([local, fleet], writingTo: local)
        #expect(layered.value(forKey: "pageSize") == .int(5))
        #expect(layered.origin(forKey: "pageSize") == "etcd \(cluster.endpoints[0]) key app/pageSize")
        #expect(layered.value(forKey: "theme") == .string("light"))
    }
}

/// The first `count` changes of `stream` (the suite's hang guard ends a wait that never ends).
///
/// A stream that ends sooner is an issue of its own, saying whether the test was cancelled:
/// when the hang guard trips, the stream ends at once and the test's expectations then fail on
/// an empty list, which would otherwise read as a store that delivered nothing.
func firstChanges(
    _ count: Int, of stream: AsyncStream<StoredChange>, sourceLocation: SourceLocation = #_sourceLocation
) async -> [StoredChange] {
    var seen: [StoredChange] = []
    guard count > 0 else { return seen }
    for await change in stream {
        seen.append(change)
        if seen.count == count { return seen }
    }
    let reason = Task.isCancelled ? "the test was cancelled (its time limit passed)" : "the store was released"
    Issue.record(
        "The change stream ended after \(seen.count) of \(count) changes: \(reason).", sourceLocation: sourceLocation)
    return seen
}
