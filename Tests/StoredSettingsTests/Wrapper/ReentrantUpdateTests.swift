import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// An `update` body that writes to the store it updates throws `.reentrantWrite` on every
/// backend, instead of hanging (FileStore) or having its write overwritten (memory, defaults).
@Suite(.timeLimit(TestScale.hangGuard))
struct ReentrantUpdateTests {
    struct Counters: SettingsGroup {
        @Stored("count", default: 0) var count: Int
        @Stored("other", default: 0) var other: Int
    }

    /// A fresh UserDefaults suite, removed when the value goes away.
    final class Suite: Sendable {
        let name = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ReentrantUpdateTests-\(UUID().uuidString)"
        ).path
        let store: UserDefaultsStore

        init() throws { store = try UserDefaultsStore(suiteAtPath: name) }

        deinit { store.defaults.removePersistentDomain(forName: name) }
    }

    /// Runs `update` of "count" on `store` with a body that sets "other" on `writer`, and
    /// returns what the body's write threw.
    func writeFromInsideUpdate(of store: any Storable, through writer: any Storable) throws -> StorageError? {
        try store.setValue(.int(1), forKey: "count")
        var thrown: StorageError?
        try store.update(forKey: "count") { value in
            do {
                try writer.setValue(.int(7), forKey: "other")
            } catch let error as StorageError {
                thrown = error
            }
            value = .int(2)
        }
        return thrown
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func aFileStoreUpdateBodyThatWritesTheSameStoreThrowsInsteadOfHanging() throws {
        let store = try TemporaryFileStore()
        let error = try #require(try writeFromInsideUpdate(of: store, through: store))
        #expect(error.code == .reentrantWrite)
        #expect(error.key == "other")
        #expect(error.location == store.location)
        #expect(error.description.contains("the update of 'count'"))
        let reopened = try store.reopened()
        #expect(reopened.value(forKey: "count") == .int(2))
        #expect(reopened.value(forKey: "other") == nil)
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func aSecondFileStoreOnTheSameFileIsRefusedInsideTheFirstOnesUpdate() throws {
        let store = try TemporaryFileStore()
        let second = try FileStore(url: store.url)
        let error = try #require(try writeFromInsideUpdate(of: store, through: second))
        #expect(error.code == .reentrantWrite)
        #expect(try store.reopened().value(forKey: "other") == nil)
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func aNestedUpdateOfTheSameFileStoreThrows() throws {
        let store = try TemporaryFileStore()
        let error = try #require(throws: StorageError.self) {
            try store.update(forKey: "count") { _ in
                try store.update(forKey: "other") { $0 = .int(1) }
            }
        }
        #expect(error.code == .reentrantWrite)
        #expect(store.value(forKey: "other") == nil)
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func aBatchBodyThatWritesTheSameFileStoreThrows() throws {
        let store = try TemporaryFileStore()
        let error = try #require(throws: StorageError.self) {
            try store.fileStore.batch { _ in try store.setValue(.int(1), forKey: "other") }
        }
        #expect(error.code == .reentrantWrite)
        #expect(store.value(forKey: "other") == nil)
    }

    @Test func anInMemoryUpdateBodyThatWritesTheSameStoreThrows() throws {
        let store = InMemoryStore()
        let error = try #require(try writeFromInsideUpdate(of: store, through: store))
        #expect(error.code == .reentrantWrite)
        #expect(error.key == "other")
        #expect(store.values == ["count": .int(2)])
    }

    @Test func aUserDefaultsUpdateBodyThatWritesTheSameSuiteThrows() throws {
        let suite = try Suite()
        let second = try UserDefaultsStore(suiteAtPath: suite.name)
        for writer in [suite.store, second] {
            let error = try #require(try writeFromInsideUpdate(of: suite.store, through: writer))
            #expect(error.code == .reentrantWrite)
            #expect(error.key == "other")
            #expect(suite.store.value(forKey: "other") == nil)
        }
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func aLayeredUpdateBodyThatWritesThroughTheLayersThrows() throws {
        let file = try TemporaryFileStore()
        let layered = LayeredStore([EnvironmentStore(prefix: "APP", environment: [:]), file], writingTo: file)
        for writer in [layered as any Storable, file] {
            let error = try #require(try writeFromInsideUpdate(of: layered, through: writer))
            #expect(error.code == .reentrantWrite)
            #expect(try file.reopened().value(forKey: "other") == nil)
        }
    }

    @Test func readOnlyStoresRefuseTheWriteAsReadOnly() throws {
        let stores: [any Storable] = [
            EnvironmentStore(prefix: "APP", environment: ["APP_COUNT": "1"]),
            CommandLineStore(arguments: ["--set", "count=1"]),
        ]
        for store in stores {
            var thrown: StorageError?
            try store.update(forKey: "count") { _ in
                do { try store.setValue(.int(7), forKey: "other") } catch let error as StorageError { thrown = error }
            }
            #expect(thrown?.code == .readOnly)
        }
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func aSetterInsideAWrapperUpdateReportsAndTheUpdateStillCommits() throws {
        let store = try TemporaryFileStore()
        let settings = Counters(store: store)
        let reported = ReportedErrors()
        try reported.capture {
            try settings.$count.update { count in
                settings.other = 5
                count += 1
            }
        }
        #expect(reported.codes == [.reentrantWrite])
        #expect(reported.errors.first?.key == "other")
        #expect(settings.count == 1)
        #expect(settings.other == 0)
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func writesToAnotherStoreAndReadsOfTheSameStoreStillWorkInsideAnUpdate() throws {
        let store = try TemporaryFileStore()
        let other = try TemporaryFileStore()
        try store.setValue(.int(3), forKey: "other")
        try store.update(forKey: "count") { value in
            value = store.value(forKey: "other")
            try? other.setValue(.int(9), forKey: "other")
        }
        #expect(store.value(forKey: "count") == .int(3))
        #expect(other.value(forKey: "other") == .int(9))
        // Once the update has returned, the same thread writes again.
        try store.setValue(.int(4), forKey: "other")
        #expect(store.value(forKey: "other") == .int(4))
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func aTaskStartedInsideTheBodyMayWriteTheStoreAfterTheUpdate() async throws {
        let store = try TemporaryFileStore()
        let task = try store.update(forKey: "count") { value in
            value = .int(1)
            return Task { try store.setValue(.int(2), forKey: "other") }
        }
        try await task.value
        #expect(try store.reopened().value(forKey: "other") == .int(2))
    }
}
