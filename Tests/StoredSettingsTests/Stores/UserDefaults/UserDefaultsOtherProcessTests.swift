#if canImport(ObjectiveC)
import Foundation
import StoredSettings
import Testing

/// Apple platforms: a key followed on its own hears another process write the suite (a widget
/// or an app extension; here the `defaults` command), by key-value observation. The suite has a
/// name of its own and its domain is removed after the test.
@Suite(.timeLimit(TestScale.hangGuard))
struct UserDefaultsOtherProcessTests {
    @Test func anotherProcessWritingAFollowedKeyIsDelivered() async throws {
        let suite = "StoredSettingsTests.\(UUID().uuidString)"
        defer { UserDefaults.standard.removePersistentDomain(forName: suite) }
        let store = try UserDefaultsStore(suiteName: suite)
        let subscription = store.subscription(readingValueForKey: "count")
        defer { subscription.end() }
        var changes = subscription.changes.makeAsyncIterator()

        let run = try await ProgramRun.run("/usr/bin/defaults", ["write", suite, "count", "-int", "2"])
        #expect(run.exitCode == 0, "\(run.errors)")
        #expect(await changes.next() == StoredChange(key: "count", value: .int(2)))
    }
}
#endif
