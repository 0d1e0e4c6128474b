public import StoredSettings
import StoredSettingsTestSupport
import Testing

// The `SettingsGroup` documentation's example of a group declared in a library target: public,
// so its `init()` must be declared public too (the free one is internal, and the compiler
// refuses a public conformance without it).

/// Settings a library shares with the apps that link it.
public struct SharedSettings: SettingsGroup {
    /// The interface theme: `system`, `light` or `dark`.
    @Stored("theme", default: "system") public var theme: String
    /// Creates the group; a public group needs a public `init()` of its own.
    public init() {}
}

@Suite(.timeLimit(TestScale.hangGuard))
struct LibraryTargetExampleTests {
    @Test func aPublicGroupWithAPublicInitReadsAndWrites() {
        let settings = SharedSettings(store: InMemoryStore())
        #expect(settings.theme == "system")
        settings.theme = "dark"
        #expect(settings.theme == "dark")
    }
}
