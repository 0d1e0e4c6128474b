import Foundation
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// A layered store's `warnings` are those its layers had when it was made, read without a lock.
@Suite(.timeLimit(TestScale.hangGuard))
struct LayeredStoreWarningsTests {
    /// A file layer's lock is held across an `update` body: reading the warnings there must not
    /// take it again.
    @Test func warningsCanBeReadInsideAnUpdateBody() throws {
        let folder = try ScratchFolder()
        let file = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        let store = LayeredStore([file], writingTo: file)
        let count = try store.update(forKey: "k") { value -> Int in
            value = .int(1)
            return store.warnings.count
        }
        #expect(count == 0)
        #expect(store.value(forKey: "k") == .int(1))
    }

    @Test func aPlainLayeredStoresWarningsAreThoseFoundWhenItWasMade() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try Data(#"{"motto": "a"}"#.utf8).write(to: url)
        let file = try FileStore(url: url, options: quietOptions)
        let store = LayeredStore([file], writingTo: file)
        #expect(store.warnings.isEmpty)
        try Data("{\"motto\": \"a\",\n\"motto\": \"b\"}\n".utf8).write(to: url)
        try file.reload()
        #expect(file.warnings.count == 1)
        #expect(store.warnings.isEmpty, "warnings changed after creation: \(store.warnings)")
    }
}
