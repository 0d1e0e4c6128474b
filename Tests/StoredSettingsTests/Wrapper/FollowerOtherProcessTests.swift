#if os(macOS)
import Foundation
import Observation
import StoredSettings
import StoredSettingsSwiftUI
import Testing

/// macOS: every follower of a `UserDefaultsStore` setting hears another process (here the
/// `defaults` command, as a widget or an app extension would) write its key, since each
/// subscribes to the key and the store observes a followed key by key-value observation. The
/// suite has a name of its own and its domain is removed after the test.
@Suite(.timeLimit(TestScale.hangGuard))
struct FollowerOtherProcessTests {
    @Test func updatesHearAnotherProcessWrite() async throws {
        let suite = "StoredSettingsTests.\(UUID().uuidString)"
        defer { UserDefaults.standard.removePersistentDomain(forName: suite) }
        let setting = Stored("count", default: 0, store: try UserDefaultsStore(suiteName: suite))
        var updates = setting.updates.makeAsyncIterator()
        #expect(await updates.next() == 0)

        try await write(suite, count: 2)
        #expect(await updates.next() == 2)
    }

    @Test func theSwiftUIFollowerHearsAnotherProcessWrite() async throws {
        let suite = "StoredSettingsTests.\(UUID().uuidString)"
        defer { UserDefaults.standard.removePersistentDomain(forName: suite) }
        let (values, sink) = AsyncStream<StoredValue?>.makeStream()
        let setting = Stored("count", default: 0, store: try UserDefaultsStore(suiteName: suite))
        let follower = SettingFollower(setting) { sink.yield($0) }
        var received = values.makeAsyncIterator()

        try await write(suite, count: 2)
        #expect(await received.next() == .int(2))
        withExtendedLifetime(follower) {}
    }

    @available(macOS 14, *)
    @Test func anObservedReadHearsAnotherProcessWrite() async throws {
        let suite = "StoredSettingsTests.\(UUID().uuidString)"
        defer { UserDefaults.standard.removePersistentDomain(forName: suite) }
        let setting = Stored("count", default: 0, store: try UserDefaultsStore(suiteName: suite))
        let (seen, sink) = AsyncStream<Int>.makeStream()
        _ = withObservationTracking {
            setting.wrappedValue
        } onChange: {
            sink.yield(setting.wrappedValue)
        }
        var received = seen.makeAsyncIterator()

        try await write(suite, count: 2)
        #expect(await received.next() == 2)
    }

    private func write(_ suite: String, count: Int) async throws {
        let run = try await ProgramRun.run("/usr/bin/defaults", ["write", suite, "count", "-int", String(count)])
        #expect(run.exitCode == 0, "\(run.errors)")
    }
}
#endif
