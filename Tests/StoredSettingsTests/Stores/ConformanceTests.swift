import Foundation
import StoredSettings
public import StoredSettingsTestSupport
public import Testing

extension StoreConformance.Rule: CustomTestStringConvertible {
    /// The rule's name, as the test report shows it.
    public var testDescription: String { rawValue }
}

/// Every backend the package ships passes every behaviour rule of the conformance suite.
@Suite(.timeLimit(TestScale.hangGuard))
struct ConformanceTests {
    @Test(arguments: Backend.allCases, StoreConformance.Rule.allCases)
    func backendKeepsRule(backend: Backend, rule: StoreConformance.Rule) async {
        let failures = await backend.conformance.check(rule)
        #expect(failures.isEmpty, "\(failures)")
    }

    @Test func reportsFailuresOfABrokenStore() async {
        let conformance = StoreConformance { StoreConformance.Subject(store: ForgetfulStore()) }
        let failures = await conformance.run()
        #expect(failures.contains { $0.check == "readAfterWrite" })
        #expect(failures.contains { $0.check == "Bool true" })
        await #expect(throws: StoreConformance.Failures.self) { try await conformance.validate() }
    }
}

/// A store that accepts every write and keeps nothing, to show the suite catches it.
final class ForgetfulStore: Storable {
    func value(forKey key: String) -> StoredValue? { nil }
    func setValue(_ value: StoredValue?, forKey key: String) throws {}
    func keys() -> [String] { [] }
    func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        var value: StoredValue?
        return try body(&value)
    }
    func changes() -> AsyncStream<StoredChange> { AsyncStream { $0.finish() } }
}
