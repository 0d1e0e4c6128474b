import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// `settings.count += 1`, `settings.map[k] = v`, `settings.list.append(x)` and
/// `settings.profile.name = n` go through the wrapper's in-place mutation path: computed from a
/// fallback they report and write nothing; from a stored or absent value they write the result.
@Suite(.timeLimit(TestScale.hangGuard))
struct InPlaceMutationTests {
    struct Profile: Codable, Equatable, Sendable, StoredValueConvertible {
        var name: String
        var age: Int
    }

    struct Settings: SettingsGroup {
        @Stored("count", default: 0) var count: Int
        @Stored("map", default: [:]) var map: [String: Int]
        @Stored("list", default: []) var list: [String]
        @Stored("profile", default: Profile(name: "nobody", age: 0)) var profile: Profile
        @Stored("nickname") var nickname: String?
    }

    /// One way to mutate a setting in place, and the key it touches.
    struct Mutation: CustomTestStringConvertible, Sendable {
        let key: String
        let spelling: String
        let apply: @Sendable (Settings) -> Void
        var testDescription: String { spelling }
    }

    static let mutations: [Mutation] = [
        Mutation(key: "count", spelling: "settings.count += 1") { $0.count += 1 },
        Mutation(key: "map", spelling: "settings.map[k] = v") { $0.map["k"] = 1 },
        Mutation(key: "list", spelling: "settings.list.append(x)") { $0.list.append("x") },
        Mutation(key: "profile", spelling: "settings.profile.name = n") { $0.profile.name = "ada" },
        Mutation(key: "nickname", spelling: "settings.nickname?.append(x)") { $0.nickname?.append("!") },
    ]

    /// A value none of the settings above decodes: a number where each expects something else,
    /// a string for `count`.
    static func unreadable(forKey key: String) -> StoredValue {
        key == "count" ? .string("three") : .int(3)
    }

    @Test(arguments: mutations)
    func anInPlaceMutationOfUnreadableDataReportsAndLeavesTheData(_ mutation: Mutation) throws {
        let broken = Self.unreadable(forKey: mutation.key)
        let store = InMemoryStore([mutation.key: broken])
        let settings = Settings(store: store)
        let reported = ReportedErrors()
        reported.capture { mutation.apply(settings) }
        #expect(store.values == [mutation.key: broken])
        let error = try #require(reported.errors.last)
        #expect(error.code == .typeMismatch)
        #expect(error.key == mutation.key)
        #expect(error.location == "memory")
        #expect(error.expectedType != nil)
        #expect(error.description.contains("was not saved"))
    }

    @Test(arguments: mutations)
    func anInPlaceMutationOfAnUnreadableFileValueLeavesTheFileAsItWas(_ mutation: Mutation) throws {
        let store = try TemporaryFileStore()
        try store.setValue(Self.unreadable(forKey: mutation.key), forKey: mutation.key)
        let before = try Data(contentsOf: store.url)
        let reported = ReportedErrors()
        reported.capture { mutation.apply(Settings(store: store)) }
        #expect(try Data(contentsOf: store.url) == before)
        let error = try #require(reported.errors.last)
        #expect(error.key == mutation.key)
        #expect(error.location == store.location)
    }

    @Test func aPlainAssignmentStillReplacesUnreadableData() throws {
        let store = InMemoryStore(["count": .string("three"), "list": .int(3)])
        let settings = Settings(store: store)
        let reported = ReportedErrors()
        reported.capture {
            settings.count = 5
            settings.list = ["x"]
        }
        #expect(store.values == ["count": .int(5), "list": .array([.string("x")])])
        #expect(reported.isEmpty)
    }

    @Test func inPlaceMutationsOfReadableOrAbsentValuesAreWritten() throws {
        let store = try TemporaryFileStore()
        try store.setValue(.int(2), forKey: "count")
        let settings = Settings(store: store)
        let reported = ReportedErrors()
        reported.capture {
            settings.count += 1
            settings.map["k"] = 1
            settings.list.append("x")
            settings.list.append("y")
            settings.profile.name = "ada"
        }
        #expect(reported.isEmpty)
        let reopened = Settings(store: try store.reopened())
        #expect(reopened.count == 3)
        #expect(reopened.map == ["k": 1])
        #expect(reopened.list == ["x", "y"])
        #expect(reopened.profile == Profile(name: "ada", age: 0))
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func anInPlaceMutationThatChangesNothingCommitsNothing() async throws {
        let store = InMemoryStore(["list": .array([.string("a")])])
        let settings = Settings(store: store)
        var changes = store.changes().makeAsyncIterator()
        settings.list.sort()
        settings.map.removeAll()
        settings.count += 0
        settings.count = 9 // the first change committed
        #expect(await changes.next() == StoredChange(key: "count", value: .int(9)))
        #expect(store.values == ["list": .array([.string("a")]), "count": .int(9)])
    }

    @Test func anInPlaceMutationOfAReadOnlyStoreReportsAndWritesNothing() throws {
        let store = EnvironmentStore(prefix: "APP", environment: ["APP_COUNT": "4"])
        let settings = Settings(store: store)
        let reported = ReportedErrors()
        reported.capture { settings.count += 1 }
        #expect(reported.codes == [.readOnly])
        #expect(settings.count == 4)
    }

    /// A run of in-place changes starts each from the value the last one wrote without decoding
    /// it again; whatever else changed the stored value in between is decoded, not skipped.
    @Test func aMutationStartsFromWhatAnotherWriterStoredSinceTheLastMutation() throws {
        let store = InMemoryStore()
        let settings = Settings(store: store)
        settings.list.append("a")
        settings.list.append("b")
        #expect(store.value(forKey: "list") == .array([.string("a"), .string("b")]))

        try store.setValue(.array([.string("other")]), forKey: "list")
        settings.list.append("c")
        #expect(settings.list == ["other", "c"])

        // The same contents as the last write, in a stored value of its own.
        try store.setValue(.array(["other", "c"].map { .string($0) }), forKey: "list")
        settings.list.append("d")
        #expect(settings.list == ["other", "c", "d"])

        settings.map["k"] = 1
        try store.setValue(.dictionary(["k": .int(5)]), forKey: "map")
        settings.map["j"] = 2
        #expect(settings.map == ["k": 5, "j": 2])

        settings.profile.age = 3
        try store.setValue(.dictionary(["name": .string("ada"), "age": .int(36)]), forKey: "profile")
        settings.profile.age += 1
        #expect(settings.profile == Profile(name: "ada", age: 37))
    }

    /// A stored value that no longer decodes stops a mutation even when the previous mutation's
    /// result is kept.
    @Test func aMutationAfterAnotherWriterLeftUnreadableDataWritesNothing() throws {
        let store = InMemoryStore()
        let settings = Settings(store: store)
        settings.list.append("a")
        try store.setValue(.array([.int(1)]), forKey: "list")
        let reported = ReportedErrors()
        reported.capture { settings.list.append("b") }
        #expect(store.value(forKey: "list") == .array([.int(1)]))
        #expect(reported.errors.map(\.code) == [.typeMismatch])
    }
}
