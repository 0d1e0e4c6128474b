import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// A report handler or an `update` body may use the package again: no lock of the package is
/// held while either runs, so re-entering never waits for itself (Linux) or aborts the
/// process (`os_unfair_lock` on Apple platforms).
@Suite(.timeLimit(TestScale.hangGuard))
struct ReentrantReportTests {
    /// In a child process: the default store is process-wide, and created once.
    @Test func reportHandlerMayUseTheDefaultStoreWhileItOpensAndReports() async throws {
        let folder = try ScratchFolder()
        let settingsFolder = folder.url.appendingPathComponent("stored-test-helper")
        try FileManager.default.createDirectory(at: settingsFolder, withIntermediateDirectories: true)
        try Data("{ broken".utf8).write(to: settingsFolder.appendingPathComponent("settings.json"))

        let output = try await ChildProcess.run(
            ["default-store-reentrant-report", "count"],
            environment: ["XDG_CONFIG_HOME": folder.path, "HOME": folder.path]
        )
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.first == "reported dataCorrupted")
        #expect(lines.contains { $0.hasPrefix("handler sees ") && $0.contains("settings.json") })
        #expect(lines.last == "read 0")
    }

    @Test func reportHandlerMayReadAndWriteTheStoreWhoseValueDidNotDecode() throws {
        let store = InMemoryStore()
        try store.setValue(.string("not a number"), forKey: "count")
        let count = Stored("count", default: 0, store: store)
        let other = Stored("other", default: 0, store: store)
        let reported = Lock<[StorageError.Code]>([])
        StorageErrorReporter.withHandler({ error in
            reported.withLock { $0.append(error.code) }
            // Re-enter the same store and wrapper from inside the report.
            other.wrappedValue = other.wrappedValue + 1
            _ = count.wrappedValue
        }) {
            #expect(count.wrappedValue == 0)
        }
        #expect(reported.value == [.typeMismatch])
        #expect(store.value(forKey: "other") == .int(1))
    }

    @Test(arguments: ["memory", "file"])
    func updateBodyMayReadItsStoreAndWriteOthersAndItsOwnWriteIsRefused(_ kind: String) throws {
        let folder = try ScratchFolder()
        let store: any Storable =
            kind == "file"
            ? try FileStore(url: folder.file("settings.json"), options: quietOptions)
            : InMemoryStore()
        let other = InMemoryStore()
        try store.setValue(.int(1), forKey: "count")
        let refusal = try store.update(forKey: "count") { value -> StorageError? in
            #expect(store.value(forKey: "count") == .int(1))
            #expect(store.keys() == ["count"])
            _ = store.changes()
            try other.update(forKey: "copy") { $0 = value }
            value = .int(2)
            do {
                try store.setValue(.int(99), forKey: "elsewhere")
                return nil
            } catch let error as StorageError {
                return error
            }
        }
        #expect(refusal?.code == .reentrantWrite)
        #expect(store.value(forKey: "count") == .int(2))
        #expect(store.value(forKey: "elsewhere") == nil)
        #expect(other.value(forKey: "copy") == .int(1))
    }
}
