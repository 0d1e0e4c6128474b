import Foundation
import StoredSettings
import Testing

/// What a store reads from its file's URL without asking `URL` again: the format (the one
/// `pathExtension` names) and the path it reads, writes and names in messages (`url.path`).
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreNameTests {
    static let names = [
        "settings.plist", "settings.PLIST", "settings.PlIsT", "settings.json", "settings", ".plist", "..plist",
        "...plist", "a..plist", ".a.plist", "settings.plist.json", "settings.json.plist", "réglages.plist",
        "settings.plïst", "settings.plist ", "settings.", "plist",
    ]

    @Test(arguments: names)
    func formatIsTheOneTheURLExtensionNames(name: String) throws {
        let folder = try ScratchFolder()
        let url = folder.file(name)
        let store = try FileStore(url: url, options: quietOptions)
        #expect(store.format == FileStore.Format(pathExtension: url.pathExtension))
    }

    @Test func aPathGivenWithTrailingSlashesIsReadWrittenAndNamedWithout() throws {
        let folder = try ScratchFolder()
        let url = URL(fileURLWithPath: folder.file("settings.plist").path + "//")
        let store = try FileStore(url: url, options: quietOptions)
        #expect(store.format == .propertyList)
        #expect(store.location == store.url.path)
        try store.setValue(.int(1), forKey: "k")
        #expect(try FileStore(url: folder.file("settings.plist"), options: quietOptions).value(forKey: "k") == .int(1))
        let relative = URL(fileURLWithPath: "settings.json/", relativeTo: folder.url)
        #expect(try FileStore(url: relative, options: quietOptions).location == folder.file("settings.json").path)
    }
}
