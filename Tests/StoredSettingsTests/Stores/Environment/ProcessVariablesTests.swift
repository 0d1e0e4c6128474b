import Foundation
import StoredSettings
import Testing

/// The process's environment read from `environ` is the one Foundation gives.
struct ProcessVariablesTests {
    @Test func processVariablesAreTheEnvironmentFoundationReads() {
        #expect(EnvironmentStore.processVariables() == ProcessInfo.processInfo.environment)
        #expect(!EnvironmentStore.processVariables().isEmpty)
    }
}
