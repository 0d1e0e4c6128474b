import Foundation
import StoredSettings
import StoredSettingsMigrations
public import StoredSettingsTestSupport
public import Testing

/// The backends and test doubles the package ships, each with its conformance checks.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case inMemory, fileJSON, filePropertyList, userDefaults, layered, migrating, spy, failing

    var conformance: StoreConformance {
        switch self {
        case .inMemory: .inMemory
        case .fileJSON: .fileStore(format: .json)
        case .filePropertyList: .fileStore(format: .propertyList)
        case .userDefaults: .userDefaults
        case .layered: .layeredStore
        case .migrating:
            // A renamed key the checks never use: every key goes straight to the file.
            StoreConformance(limitations: [.nonFiniteNumbers]) {
                let renames = [KeyRename(from: "conformance.old", to: "conformance.new")]
                let file = try TemporaryFileStore()
                return StoreConformance.Subject(
                    store: try MigratingStore(file, renamedKeys: renames),
                    reopen: { try MigratingStore(file.reopened(), renamedKeys: renames) })
            }
        case .spy: StoreConformance { StoreConformance.Subject(store: SpyStore()) }
        case .failing: StoreConformance { StoreConformance.Subject(store: FailingStore()) }
        }
    }

    var testDescription: String { rawValue }
}

extension StoreConformance.ValueCase: CustomTestStringConvertible {
    /// The case's name, as the test report shows it.
    public var testDescription: String { name }
}

/// Every row of the type table, through every backend and across a relaunch.
@Suite(.timeLimit(TestScale.hangGuard))
struct TypeTableTests {
    @Test(arguments: Backend.allCases, StoreConformance.valueCases)
    func valueRoundTripsExactly(backend: Backend, valueCase: StoreConformance.ValueCase) {
        withKnownIssue(
            "Foundation on Linux sometimes keeps -0.0 as 0.0 while other threads use UserDefaults",
            isIntermittent: true
        ) {
            let failures = backend.conformance.check(valueCase)
            #expect(failures.isEmpty, "\(failures)")
        } when: {
            Self.mayLoseTheSignOfZero(backend, valueCase)
        }
    }

    /// Whether Foundation may lose the sign of the row's zero (Platform notes): UserDefaults on
    /// Linux, whose `set` stores -0.0 as 0.0 now and then when several threads use `UserDefaults`
    /// (in a stress run of 8 threads, 1 write in 5; never on one thread).
    private static func mayLoseTheSignOfZero(_ backend: Backend, _ valueCase: StoreConformance.ValueCase) -> Bool {
        #if canImport(Darwin)
        false
        #else
        backend == .userDefaults && valueCase.name.hasSuffix("-0.0")
        #endif
    }

    @Test func jsonFileRefusesNonFiniteNumbersAndKeepsPreviousValue() throws {
        let store = try TemporaryFileStore()
        try store.setValue(.double(1.5), forKey: "ratio")
        #expect {
            try store.setValue(Double.nan.storedValue(), forKey: "ratio")
        } throws: { error in
            (error as? StorageError)?.code == .encodingFailed
        }
        #expect(store.value(forKey: "ratio") == .double(1.5))
        #expect(try store.reopened().value(forKey: "ratio") == .double(1.5))
    }
}
