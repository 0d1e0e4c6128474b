public import StoredSettings
import StoredSettingsTestSupport
import Testing

// The `SettingsGroup` documentation's example of a group declared in a library target: public,
// so its `init()` must be declared public too (the free one is internal, and the compiler
// refuses a public conformance without it).

public struct SharedSettings: SettingsGroup {
    @Stored("theme", default: "system") public var theme: String
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
