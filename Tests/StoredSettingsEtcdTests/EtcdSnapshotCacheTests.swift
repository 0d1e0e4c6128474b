import Foundation
import StoredSettings
import StoredSettingsEtcd
import StoredSettingsTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `EtcdStore` with a snapshot cache: opened with the cluster down it serves the cached values,
/// refuses writes and refreshes when the cluster answers; a bad cache is ignored, never trusted.
@Suite(.timeLimit(.hangGuard))
struct EtcdSnapshotCacheTests {
    /// A fresh folder for the cache file, removed by the caller.
    static func cacheFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("etcd-cache-\(UUID().uuidString)")
    }

    /// The top-level fields of the cache file at `file`.
    static func cachedFields(_ file: URL) throws -> [String: StoredValue] {
        let cached = try StoredValue(jsonData: Data(contentsOf: file))
        guard case .dictionary(let fields) = cached else { throw EtcdCluster.Failure(description: "\(cached)") }
        return fields
    }

    static func configuration(_ endpoints: [String], cache: URL) throws -> EtcdStore.Configuration {
        try EtcdStore.Configuration(
            endpoints: endpoints, prefix: "app", maximumReconnectDelay: 0.2, snapshotCacheFile: cache)
    }

    @Test func storeOpenedWithTheClusterDownServesTheCachedValuesAndRefusesWrites() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let folder = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = try Self.configuration(
            cluster.endpoints, cache: folder.appendingPathComponent("cache.json"))
        _ = try await cluster.etcdctl(["put", "app/a", "1"])
        _ = try await cluster.etcdctl(["put", "app/b", "dark"])
        let first = try EtcdStore(configuration: configuration)
        #expect(first.disconnectedSince == nil)
        let revision = first.revision

        cluster.stop(cluster.members[0])
        let reported = ReportedErrors()
        let store = try reported.capture { try EtcdStore(configuration: configuration) }
        #expect(store.value(forKey: "a") == .int(1))
        #expect(store.value(forKey: "b") == .string("dark"))
        #expect(store.keys().sorted() == ["a", "b"])
        #expect(store.revision == revision)
        #expect(store.disconnectedSince != nil)
        #expect(reported.codes == [.io], "\(reported.errors)")
        #expect(reported.errors.first?.description.contains("cache.json") == true, "\(reported.errors)")
        let error = try #require(throws: StorageError.self) { try store.setValue(.int(2), forKey: "a") }
        #expect(error.code == .io, "\(error)")
        #expect(error.description.contains("nothing was changed"), "\(error)")
        #expect(throws: StorageError.self) { try store.update(forKey: "a") { $0 = .int(3) } }
        #expect(store.value(forKey: "a") == .int(1))
    }

    @Test func cachedStoreRefreshesDeliversTheChangedKeysAndReconnectsWhenTheClusterAnswers() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let member = cluster.members[0]
        let folder = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cache.json")
        let configuration = try Self.configuration(cluster.endpoints, cache: file)
        _ = try await cluster.etcdctl(["put", "app/a", "1"])
        _ = try await cluster.etcdctl(["put", "app/b", "1"])
        _ = try await cluster.etcdctl(["put", "app/same", "1"])
        // The cache holds a=1, b=1, same=1; then etcd moves on with no store to see it.
        try EtcdStore(configuration: configuration).flushSnapshotCache()
        _ = try await cluster.etcdctl(["put", "app/a", "2"])
        _ = try await cluster.etcdctl(["del", "app/b"])
        _ = try await cluster.etcdctl(["put", "app/c", "3"])
        cluster.stop(member)

        let store = try ReportedErrors().capture { try EtcdStore(configuration: configuration) }
        let changes = store.changes()
        #expect(store.value(forKey: "a") == .int(1))
        #expect(store.disconnectedSince != nil)
        try await cluster.restart(member)
        let seen = await firstChanges(3, of: changes)
        #expect(
            Set(seen) == [
                StoredChange(key: "a", value: .int(2)), StoredChange(key: "b", value: nil),
                StoredChange(key: "c", value: .int(3)),
            ])
        await store.waitUntilConnected(true)
        #expect(store.disconnectedSince == nil)
        #expect(store.keys().sorted() == ["a", "c", "same"])
        try store.setValue(.int(4), forKey: "a")
        store.flushSnapshotCache()
        let fields = try Self.cachedFields(file)
        #expect(fields["values"] == .dictionary(["a": .string("4"), "c": .string("3"), "same": .string("1")]))
        #expect(fields["revision"] == .int(store.revision))
    }

    @Test func storeOpenedWhileTheMemberIsFrozenServesTheCacheAndRefreshesWhenItThaws() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let member = cluster.members[0]
        let folder = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var configuration = try Self.configuration(
            cluster.endpoints, cache: folder.appendingPathComponent("cache.json"))
        configuration.requestTimeout = 0.5
        _ = try await cluster.etcdctl(["put", "app/a", "1"])
        try EtcdStore(configuration: configuration).flushSnapshotCache()
        _ = try await cluster.etcdctl(["put", "app/a", "2"])
        cluster.freeze(member)

        let store = try ReportedErrors().capture { try EtcdStore(configuration: configuration) }
        let changes = store.changes()
        #expect(store.value(forKey: "a") == .int(1))
        #expect(store.disconnectedSince != nil)
        cluster.thaw(member)
        #expect(await firstChanges(1, of: changes) == [StoredChange(key: "a", value: .int(2))])
        await store.waitUntilConnected(true)
        #expect(store.disconnectedSince == nil)
        // The refresh's save lands before the folder is removed.
        store.flushSnapshotCache()
    }

    /// A cache file that is not a usable snapshot, and what it holds.
    struct BadCache: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var bytes: @Sendable (_ endpoint: String) -> Data
    }

    static let badCaches = [
        BadCache(testDescription: "random bytes") { _ in Data((0..<512).map { _ in UInt8.random(in: 0...255) }) },
        BadCache(testDescription: "truncated JSON") { endpoint in
            Data(#"{"endpoints": ["http://\#(endpoint)"], "prefix": "app", "revision": 4, "values": {"a": "1"#.utf8)
        },
        BadCache(testDescription: "another prefix") { endpoint in
            Data(
                #"{"endpoints": ["http://\#(endpoint)"], "prefix": "other", "revision": 4, "values": {"a": "1"}}"#.utf8)
        },
        BadCache(testDescription: "other endpoints") { _ in
            Data(#"{"endpoints": ["http://10.9.9.9:2379"], "prefix": "app", "revision": 4, "values": {"a": "1"}}"#.utf8)
        },
        BadCache(testDescription: "values that are not text") { endpoint in
            Data(#"{"endpoints": ["http://\#(endpoint)"], "prefix": "app", "revision": 4, "values": {"a": 1}}"#.utf8)
        },
    ]

    @Test(arguments: badCaches)
    func unusableCacheIsReportedAndIgnoredAndTheOpenThrowsAsWithout(_ bad: BadCache) async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let endpoint = cluster.endpoints[0]
        cluster.stop(cluster.members[0])
        let folder = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("cache.json")
        try bad.bytes(endpoint).write(to: file)
        var configuration = try Self.configuration([endpoint], cache: file)
        configuration.connectionTimeout = 0.2
        let reported = ReportedErrors()
        let error = try #require(throws: StorageError.self) {
            try reported.capture { try EtcdStore(configuration: configuration) }
        }
        #expect(error.code == .io, "\(error)")
        #expect(error.description.contains("no endpoint answered"), "\(error)")
        #expect(reported.codes == [.dataCorrupted], "\(reported.errors)")
        #expect(reported.errors.first?.description.contains("snapshot cache ignored") == true, "\(reported.errors)")
    }

    @Test func missingCacheFileOpensAsWithoutOne() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let endpoint = cluster.endpoints[0]
        cluster.stop(cluster.members[0])
        let folder = Self.cacheFolder()
        var configuration = try Self.configuration([endpoint], cache: folder.appendingPathComponent("cache.json"))
        configuration.connectionTimeout = 0.2
        let reported = ReportedErrors()
        let error = try #require(throws: StorageError.self) {
            try reported.capture { try EtcdStore(configuration: configuration) }
        }
        #expect(error.code == .io, "\(error)")
        #expect(reported.isEmpty, "\(reported.errors)")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    @Test func cacheFileIsAlwaysWholeAcrossManyRefreshesAndLeavesNoTemporaryFiles() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let folder = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cache.json")
        let store = try EtcdStore(configuration: try Self.configuration(cluster.endpoints, cache: file))
        // A reader on its own thread parses the file again and again while the store rewrites it.
        let done = Lock(false)
        let torn = Lock<[String]>([])
        let reader = Task {
            try await onOwnThread {
                while !done.value {
                    let bytes = (try? Data(contentsOf: file)) ?? Data()
                    guard case .dictionary(let fields)? = try? StoredValue(jsonData: bytes),
                        fields["prefix"] == .string("app")
                    else {
                        torn.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
                        continue
                    }
                }
            }
        }
        for index in 1...60 { try store.setValue(.int(Int64(index)), forKey: "k\(index % 7)") }
        store.flushSnapshotCache()
        done.withLock { $0 = true }
        // The read in progress when `done` was set is recorded before the reader returns.
        try await reader.value
        #expect(torn.value.isEmpty, "\(torn.value.count) torn reads; the first: \(torn.value.first?.prefix(200) ?? "")")
        let fields = try Self.cachedFields(file)
        #expect(fields["revision"] == .int(store.revision))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["cache.json"])
    }

    @Test func writerKilledWhileSavingLeavesAWholeCacheAndTheNextOpenRemovesItsTemporaryFile() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let folder = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cache.json")
        let child = try EtcdProgram.launch(
            try EtcdProgram.built("etcd-test-helper"), ["cache", cluster.address(prefix: "app"), file.path])
        // Each write changes the snapshot, so the child saves the cache all the time it runs;
        // its first write's save is on disk before it prints its second line.
        for _ in 0..<40 { _ = await child.nextLine() }
        kill(child.pid, SIGKILL)
        _ = await child.finish()
        let fields = try Self.cachedFields(file)
        #expect(fields["prefix"] == .string("app"))
        guard case .dictionary(let values)? = fields["values"], case .string(let text)? = values["k"],
            let written = Int(text)
        else { throw EtcdCluster.Failure(description: "\(fields)") }
        #expect(written >= 1)
        // Whether or not the kill left one, a temporary file of the ended writer is removed.
        try Data("{\"endpoints\": [".utf8).write(to: folder.appendingPathComponent("cache.json.tmp-\(child.pid)-0"))

        let store = try EtcdStore(configuration: try Self.configuration(cluster.endpoints, cache: file))
        store.flushSnapshotCache()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["cache.json"])
    }

    @Test func flushAfterAChangeEventFindsTheChangeOnDisk() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let folder = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cache.json")
        let store = try EtcdStore(configuration: try Self.configuration(cluster.endpoints, cache: file))
        let writer = try EtcdStore(
            configuration: try EtcdStore.Configuration(endpoints: cluster.endpoints, prefix: "app"))
        var changes = store.changes().makeAsyncIterator()
        var stale: [Int] = []
        for index in 1...10 {
            try writer.setValue(.int(Int64(index)), forKey: "k")
            while let change = await changes.next(), change.value != .int(Int64(index)) {}
            store.flushSnapshotCache()
            guard case .dictionary(let values)? = try Self.cachedFields(file)["values"] else {
                throw EtcdCluster.Failure(description: "no values in the cache")
            }
            if values["k"] != .string("\(index)") { stale.append(index) }
        }
        #expect(stale.isEmpty, "the cache was stale after the flush for writes \(stale)")
    }

    @Test func sameEndpointsInAnotherOrderServeTheCache() async throws {
        let cluster = try await EtcdCluster.start(size: 2)
        defer { cluster.shutDown() }
        let folder = Self.cacheFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("cache.json")
        _ = try await cluster.etcdctl(["put", "app/a", "1"])
        try EtcdStore(configuration: try Self.configuration(cluster.endpoints, cache: file)).flushSnapshotCache()
        for member in cluster.members { cluster.stop(member) }
        let reported = ReportedErrors()
        let store = try? reported.capture {
            try EtcdStore(configuration: try Self.configuration(cluster.endpoints.reversed(), cache: file))
        }
        #expect(store?.value(forKey: "a") == .int(1), "\(reported.errors)")
    }
}
