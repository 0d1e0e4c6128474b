import Foundation
import StoredSettings
import StoredSettingsEtcd
import StoredSettingsTestSupport
import Testing

/// Every write the store acknowledges holds: an update creating a key is committed at most
/// once, and a delete reads back as deleted, while a frozen member holds a copy or the watch.
///
/// The cluster, the frozen follower and the stores are ``EtcdUnknownOutcomeTests``'.
@Suite(.timeLimit(.hangGuard))
struct EtcdAcknowledgedWriteTests {
    /// An update's compare `mod_revision == 0` holds again once the key is deleted: a copy the
    /// frozen member holds could apply after another writer's acknowledged delete, so a
    /// creating update is never sent again.
    @Test func updateCreatingAKeyAFrozenMemberReceivedIsNotSentAgainAndMayOrMayNotHaveBeenCommitted() async throws {
        let (cluster, frozen, others) = try await EtcdUnknownOutcomeTests.clusterWithFollower()
        defer { cluster.shutDown() }
        let store = try EtcdUnknownOutcomeTests.store(askingFirst: frozen, then: others)
        try await EtcdUnknownOutcomeTests.awaitWatches(of: [store], in: cluster)
        cluster.freeze(frozen)

        let error = try await #require(throws: StorageError.self) {
            try await onOwnThread { try store.update(forKey: "new") { $0 = .int(1) } }
        }
        #expect(error.code == .outcomeUnknown, "\(error)")
        #expect(error.key == "new")
        #expect(error.description.contains("may or may not have been committed"), "\(error)")
        #expect(error.description.contains(frozen.endpoint), "\(error)")
        let held = try await cluster.etcdctl(["get", "app/new", "--print-value-only"], through: others)
        #expect(held == "")
        cluster.thaw(frozen)
    }

    /// etcd answers a delete of a key another writer deleted with "deleted 0"; the watch, on
    /// the frozen member, has not delivered that delete, and the store's read must not serve
    /// the old value after the delete returned.
    @Test func deleteOfAKeyAnotherWriterDeletedReadsAsDeletedWhileTheWatchIsBehind() async throws {
        let (cluster, frozen, others) = try await EtcdUnknownOutcomeTests.clusterWithFollower()
        defer { cluster.shutDown() }
        let store = try EtcdUnknownOutcomeTests.store(askingFirst: frozen, then: others)
        try await EtcdUnknownOutcomeTests.awaitWatches(of: [store], in: cluster)
        #expect(store.value(forKey: "x") == .int(1))
        cluster.freeze(frozen)
        // A read the frozen member does not answer: requests ask the others first from now on,
        // while the watch stays on the frozen member.
        #expect(try await onOwnThread { try store.committedValue(forKey: "x") } == .int(1))
        _ = try await cluster.etcdctl(["del", "app/x"], through: others)

        try await onOwnThread { try store.setValue(nil, forKey: "x") }
        #expect(store.value(forKey: "x") == nil)
        #expect(!store.keys().contains("x"))
        cluster.thaw(frozen)
    }

    /// As above, and the read that would bring the snapshot past that delete is refused: the
    /// delete must not return as if a read after it could not serve the old value.
    @Test func deleteAnsweredDeletedZeroWhoseCatchUpReadFailsThrowsTheReadsError() async throws {
        let (cluster, frozen, others) = try await EtcdUnknownOutcomeTests.clusterWithFollower()
        defer { cluster.shutDown() }
        let root = "--user=root:correct-horse"
        // User `app` may read and write the prefix, until root leaves it only writing.
        for arguments in [
            ["user", "add", "root:correct-horse"], ["role", "add", "app"],
            ["role", "grant-permission", "app", "readwrite", "--prefix", "app/"],
            ["user", "add", "app:battery-staple"], ["user", "grant-role", "app", "app"], ["auth", "enable"],
        ] {
            _ = try await cluster.etcdctl(arguments)
        }
        var configuration = try EtcdStore.Configuration(
            endpoints: ([frozen] + others).map(\.endpoint), prefix: "app", user: "app", password: "battery-staple",
            requestTimeout: 2)
        configuration.racesFirstRead = false
        let store = try EtcdStore(configuration: configuration)
        let stream = store.changes()
        _ = try await cluster.etcdctl([root, "put", "app/watching", "1"])
        _ = await firstChanges(1, of: stream)
        #expect(store.value(forKey: "x") == .int(1))
        cluster.freeze(frozen)
        // A read the frozen member does not answer: requests ask the others first from now on,
        // while the watch stays on the frozen member.
        #expect(try await onOwnThread { try store.committedValue(forKey: "x") } == .int(1))
        for arguments in [
            ["role", "revoke-permission", "app", "app/", "--prefix"],
            ["role", "grant-permission", "app", "write", "--prefix", "app/"], ["del", "app/x"],
        ] {
            _ = try await cluster.etcdctl([root] + arguments, through: others)
        }

        let error = try await onOwnThread {
            try #require(throws: StorageError.self) { try store.setValue(nil, forKey: "x") }
        }
        #expect(error.code == .authenticationFailed, "\(error)")
        #expect(error.description.contains("permission denied"), "\(error)")
        #expect(error.key == "x", "\(error)")
        cluster.thaw(frozen)
    }
}
