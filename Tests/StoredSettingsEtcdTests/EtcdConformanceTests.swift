import Foundation
import StoredSettings
import StoredSettingsEtcd
import StoredSettingsTestSupport
import Testing

/// `EtcdStore` passes the conformance suite, with JSON's limitation declared (no NaN or
/// infinities). One etcd per test; each check gets a prefix of its own.
@Suite(.timeLimit(.hangGuard))
struct EtcdConformanceTests {
    static func conformance(on cluster: EtcdCluster) -> StoreConformance {
        let endpoints = cluster.endpoints
        return StoreConformance(limitations: [.nonFiniteNumbers]) {
            let prefix = "check-\(UUID().uuidString)"
            let configuration = try EtcdStore.Configuration(endpoints: endpoints, prefix: prefix)
            return StoreConformance.Subject(
                store: try EtcdStore(configuration: configuration),
                reopen: { try EtcdStore(configuration: configuration) }
            )
        }
    }

    @Test(arguments: StoreConformance.Rule.allCases)
    func keepsRule(_ rule: StoreConformance.Rule) async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let failures = await Self.conformance(on: cluster).check(rule)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func roundTripsEveryValueOfTheTypeTable() async throws {
        let cluster = try await EtcdCluster.start()
        defer { cluster.shutDown() }
        let conformance = Self.conformance(on: cluster)
        var failures: [StoreConformance.Failure] = []
        for valueCase in StoreConformance.valueCases { failures += conformance.check(valueCase) }
        #expect(failures.isEmpty, "\(failures)")
    }
}
