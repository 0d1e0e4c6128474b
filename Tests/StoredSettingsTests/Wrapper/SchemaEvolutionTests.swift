import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// A stored struct that lacks a field the new code requires: the getter returns the default,
/// reports once, and the stored data stays untouched until the user writes.
@Suite(.timeLimit(TestScale.hangGuard))
struct SchemaEvolutionTests {
    /// Version 2 of a profile, which requires a field version 1 did not store.
    struct StrictProfile: Codable, Equatable, StoredValueConvertible {
        var name: String
        var theme: String
    }

    static let version1: StoredValue = .dictionary(["name": .string("Ada")])
    static let fallback = StrictProfile(name: "", theme: "system")

    @Test func getterFallsBackReportsOnceAndLeavesDataUntouched() throws {
        let store = try TemporaryFileStore()
        try store.setValue(Self.version1, forKey: "profile")
        let bytes = try Data(contentsOf: store.url)
        let profile = Stored("profile", default: Self.fallback, store: store)
        let reports = Lock<[StorageError]>([])
        StorageErrorReporter.withHandler({ error in reports.withLock { $0.append(error) } }) {
            for _ in 0..<3 { #expect(profile.wrappedValue == Self.fallback) }
            #expect((try? Data(contentsOf: store.url)) == bytes, "reading wrote the file")
            try? store.setValue(.int(1), forKey: "unrelated")
            #expect(profile.wrappedValue == Self.fallback)
            #expect(Stored("profile", default: Self.fallback, store: store).wrappedValue == Self.fallback)
        }
        let reported = reports.value
        // One report per wrapper: the first wrapper once, the second (a new wrapper) once.
        #expect(reported.count == 2)
        #expect(reported.first?.code == .typeMismatch)
        #expect(reported.first?.codingPath == ["theme"])
        #expect(reported.first?.key == "profile")
        #expect(store.value(forKey: "profile") == Self.version1)
        #expect(try store.reopened().value(forKey: "profile") == Self.version1)
    }

    @Test func loadThrowsNamingTheMissingField() {
        let store = InMemoryStore(["profile": Self.version1])
        #expect {
            _ = try Stored("profile", default: Self.fallback, store: store).load()
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .typeMismatch && error?.codingPath == ["theme"] && error?.foundKind == "nothing"
        }
    }

    @Test func writingReplacesTheOldData() throws {
        let store = InMemoryStore(["profile": Self.version1])
        let profile = Stored("profile", default: Self.fallback, store: store)
        _ = StorageErrorReporter.withHandler({ _ in }) { profile.wrappedValue }
        profile.wrappedValue = StrictProfile(name: "Ada", theme: "dark")
        #expect(profile.wrappedValue == StrictProfile(name: "Ada", theme: "dark"))
        // The store holds the new shape, not the old data (read past any cache of the wrapper).
        #expect(store.value(forKey: "profile") == (try StrictProfile(name: "Ada", theme: "dark").storedValue()))
    }

    @Test func optionalFieldReadsOldData() throws {
        let store = InMemoryStore(["profile": Self.version1])
        let profile = Stored("profile", default: OptionalFieldProfile(name: "", theme: nil), store: store)
        #expect(try profile.load() == OptionalFieldProfile(name: "Ada", theme: nil))
    }

    @Test func decodeIfPresentReadsOldDataWithADefault() throws {
        let store = InMemoryStore(["profile": Self.version1])
        let profile = Stored("profile", default: DefaultingProfile(name: ""), store: store)
        #expect(try profile.load() == DefaultingProfile(name: "Ada", theme: "system"))
        profile.wrappedValue = DefaultingProfile(name: "Ada", theme: "dark")
        #expect(try profile.load() == DefaultingProfile(name: "Ada", theme: "dark"))
    }
}
