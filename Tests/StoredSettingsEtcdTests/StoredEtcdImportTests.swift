import Foundation
import Testing

/// `stored import` to an etcd target is one transaction: etcd applies every key or none.
@Suite(.timeLimit(.hangGuard))
struct StoredEtcdImportTests {
    @Test func anImportEtcdRefusesForOneKeyChangesNoKey() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        // User `app` may read the whole prefix and write only keys from daybook/a to daybook/b.
        for arguments in [
            ["user", "add", "root:correct-horse"], ["role", "add", "writer"],
            ["role", "grant-permission", "writer", "read", "--prefix", "daybook/"],
            ["role", "grant-permission", "writer", "write", "daybook/a", "daybook/b"],
            ["user", "add", "app:battery-staple"], ["user", "grant-role", "app", "writer"], ["auth", "enable"],
        ] {
            _ = try await cluster.etcdctl(arguments)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"alpha": 1, "zulu": 2}"#.utf8).write(to: file)

        let run = try await EtcdProgram.run(
            try EtcdProgram.built("stored"), ["import", cluster.address(prefix: "daybook"), file.path],
            environment: ["STORED_ETCD_USER": "app", "STORED_ETCD_PASSWORD": "battery-staple"])
        #expect(run.exitCode != 0, "\(run.output)")
        #expect(run.errors.contains("permission denied"), "\(run.errors)")
        let held = try await cluster.etcdctl([
            "--user=root:correct-horse", "get", "--prefix", "daybook/", "--keys-only",
        ])
        #expect(held.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(held)")
    }
}
