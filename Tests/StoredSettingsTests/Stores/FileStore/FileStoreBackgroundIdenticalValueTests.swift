import Foundation
import StoredSettings
import Testing

/// A background write of a value the file holds already (a canonically equivalent string)
/// leaves the file's text as a durable write of it would: untouched.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreBackgroundIdenticalValueTests {
    @Test func aBackgroundWriteOfAnEquivalentStringLeavesTheFileAsItWas() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(.string("\u{E9}"), forKey: "b")
        let before = try Data(contentsOf: url)
        try store.setValueInBackground(.string("e\u{301}"), forKey: "b")
        try store.flush()
        #expect(Array(try Data(contentsOf: url)) == Array(before))
    }
}
