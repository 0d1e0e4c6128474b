import StoredSettings
import StoredSettingsTestSupport
import Testing

private enum SendableKey: String, StorageKey { case launchCount }

private struct SentSettings: SettingsGroup {
    @Stored(SendableKey.launchCount, default: 0) var launchCount: Int
}

/// Reads a group's settings in a detached task: compiles only because every group is Sendable.
private func launchCount<Group: SettingsGroup>(
    of group: Group, reading read: @escaping @Sendable (Group) -> Int
) async -> Int {
    await Task.detached { read(group) }.value
}

@Suite(.timeLimit(TestScale.hangGuard))
struct SettingsGroupSendableTests {
    @Test func aGroupCanBeSentToAnotherTaskAndSharesItsStore() async {
        let store = InMemoryStore()
        let settings = SentSettings(store: store)
        settings.launchCount = 3
        let read = await launchCount(of: settings) { $0.launchCount }
        #expect(read == 3)
        let writer = Task.detached { settings.launchCount = 4 }
        await writer.value
        #expect(SentSettings(store: store).launchCount == 4)
    }
}
