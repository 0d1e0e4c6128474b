import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// A value given for one run (environment, command line) never reaches the writable layer
/// through `update` or an in-place mutation; an update starts from the persistent value.
@Suite(.timeLimit(TestScale.hangGuard))
struct OneRunOverrideTests {
    struct Settings: SettingsGroup {
        @Stored("count", default: 0) var count: Int
        @Stored("tags", default: []) var tags: [String]
    }

    /// A file layer under command-line and environment layers, as a command-line tool builds it.
    struct Tool {
        let file: TemporaryFileStore
        let store: LayeredStore
        let settings: Settings

        init(environment: [String: String] = [:], arguments: [String] = []) throws {
            file = try TemporaryFileStore()
            store = LayeredStore(
                [
                    CommandLineStore(arguments: arguments), EnvironmentStore(prefix: "APP", environment: environment),
                    file,
                ],
                writingTo: file
            )
            settings = Settings(store: store)
        }

        /// The value of `key` in the file, read by a fresh store.
        func persisted(_ key: String) throws -> StoredValue? {
            try file.reopened().value(forKey: key)
        }
    }

    static let overrides: [(environment: [String: String], arguments: [String])] = [
        (["APP_COUNT": "1000"], []),
        ([:], ["--set", "count=5000"]),
    ]

    @Test(arguments: 0..<2)
    func anUpdateUnderAnOverrideCountsOnFromTheFileValue(_ index: Int) throws {
        let (environment, arguments) = Self.overrides[index]
        let tool = try Tool(environment: environment, arguments: arguments)
        try tool.file.setValue(.int(1), forKey: "count")
        let override = tool.settings.count
        #expect(override > 1)
        try tool.settings.$count.update { $0 += 1 }
        #expect(try tool.persisted("count") == .int(2))
        #expect(tool.settings.count == override) // the override still wins on reads
    }

    @Test(arguments: 0..<2)
    func anInPlaceMutationUnderAnOverrideStartsFromTheFileValue(_ index: Int) throws {
        let (environment, arguments) = Self.overrides[index]
        let tool = try Tool(environment: environment, arguments: arguments)
        tool.settings.count += 1
        tool.settings.count += 1
        #expect(try tool.persisted("count") == .int(2))
    }

    @Test func anAppendUnderAnEnvironmentListDoesNotCopyTheList() throws {
        let tool = try Tool(environment: ["APP_TAGS": "[\"from-env\"]"])
        try tool.file.setValue(.array([.string("saved")]), forKey: "tags")
        tool.settings.tags.append("new")
        try tool.settings.$tags.update { $0.append("newer") }
        #expect(try tool.persisted("tags") == .array([.string("saved"), .string("new"), .string("newer")]))
        #expect(tool.settings.tags == ["from-env"])
    }

    @Test func anUpdateBodySeesTheValueBelowTheOverrideAndReturnsWhatItComputed() throws {
        let tool = try Tool(environment: ["APP_COUNT": "1000"])
        let seen = try tool.settings.$count.update { count -> Int in
            let before = count
            count += 1
            return before
        }
        #expect(seen == 0) // the default: the file holds nothing yet
        #expect(try tool.persisted("count") == .int(1))
    }

    @Test func anUpdateThatChangesNothingUnderAnOverrideWritesNothing() throws {
        let tool = try Tool(environment: ["APP_COUNT": "1000"])
        try tool.settings.$count.update { _ in }
        tool.settings.tags.sort()
        #expect(tool.file.keys().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: tool.file.url.path))
    }

    @Test func anExplicitAssignmentOfTheOverrideIsWritten() throws {
        let tool = try Tool(environment: ["APP_COUNT": "1000"])
        tool.settings.count = tool.settings.count + 1
        #expect(try tool.persisted("count") == .int(1001))
    }

    @Test func anUpdateStartsFromALowerLayerWhenTheWritableLayerHoldsNothing() throws {
        let file = InMemoryStore()
        let defaults = InMemoryStore(["count": .int(100)])
        let store = LayeredStore(
            [EnvironmentStore(prefix: "APP", environment: ["APP_COUNT": "7"]), file, defaults], writingTo: file)
        try Settings(store: store).$count.update { $0 += 1 }
        #expect(file.values == ["count": .int(101)])
    }
}
