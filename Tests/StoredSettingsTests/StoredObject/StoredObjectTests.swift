import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

@Suite(.timeLimit(TestScale.hangGuard))
struct StoredObjectTests {
    struct Session: StoredObject, Equatable {
        var user: String
        var expires: Date
    }

    struct Renamed: StoredObject, Equatable {
        static let storageKey = "legacy.session"
        var token: String
    }

    @Test func savesUnderTheTypeNameAsAStructuredTree() throws {
        let store = InMemoryStore()
        let session = Session(user: "ada", expires: Date(timeIntervalSinceReferenceDate: 1.5))
        try store.save(session)
        #expect(Session.storageKey == "Session")
        #expect(store.value(forKey: "Session") == .dictionary(["user": .string("ada"), "expires": .date(Date(timeIntervalSinceReferenceDate: 1.5))]))
        #expect(try store.load(Session.self) == session)
    }

    @Test func loadsNilWhenNothingIsStoredAndAfterRemove() throws {
        let store = InMemoryStore()
        #expect(try store.load(Session.self) == nil)
        try store.save(Session(user: "a", expires: .distantFuture))
        try store.remove(Session.self)
        #expect(try store.load(Session.self) == nil)
        #expect(store.keys().isEmpty)
    }

    @Test func customStorageKeyIsUsed() throws {
        let store = InMemoryStore()
        try store.save(Renamed(token: "t"))
        #expect(store.keys() == ["legacy.session"])
    }

    @Test func survivesARelaunchOfAFileStore() throws {
        let store = try TemporaryFileStore()
        let session = Session(user: "ada", expires: Date(timeIntervalSinceReferenceDate: 817_000_000.125))
        try store.save(session)
        #expect(try store.reopened().load(Session.self) == session)
    }

    @Test func undecodableObjectThrowsNamingKeyAndTypeAndStaysUntouched() {
        let stored: StoredValue = .dictionary(["user": .int(3)])
        let store = InMemoryStore(["Session": stored])
        #expect {
            _ = try store.load(Session.self)
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .typeMismatch && error?.key == "Session" && error?.path == "memory"
                && error?.codingPath == ["user"]
        }
        #expect(store.value(forKey: "Session") == stored)
    }

    @Test func failedSaveKeepsThePreviousObject() throws {
        struct Ratio: StoredObject { var value: Double }
        let store = try TemporaryFileStore()
        try store.save(Ratio(value: 0.5))
        #expect {
            try store.save(Ratio(value: .nan))
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .encodingFailed && error?.key == "Ratio"
        }
        #expect(try store.reopened().load(Ratio.self)?.value == 0.5)
    }
}
