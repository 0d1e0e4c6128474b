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

    /// URLs naming one file in several spellings: each store reads, writes and names the file
    /// at `url.path`, and its `url` names the same file.
    @Test func everySpellingOfAFileURLNamesTheFileAtItsPath() throws {
        let folder = try ScratchFolder()
        let file = folder.file("my settings.json")
        let encoded = file.path.replacingOccurrences(of: " ", with: "%20")
        let spellings = [
            file, URL(fileURLWithPath: file.path, isDirectory: false), URL(string: "file://" + encoded),
            URL(string: "file://localhost" + encoded), URL(fileURLWithPath: "my settings.json", relativeTo: folder.url),
            URL(string: "my%20settings.json", relativeTo: folder.url),
        ].compactMap(\.self)
        #expect(spellings.count == 6)
        for (index, url) in spellings.enumerated() {
            let store = try FileStore(url: url, options: quietOptions)
            #expect(store.location == file.path, "spelling \(index): \(url)")
            #expect(store.url.path == file.path, "spelling \(index): \(url)")
            try store.setValue(.int(Int64(index)), forKey: "k")
            #expect(try FileStore(url: file, options: quietOptions).value(forKey: "k") == .int(Int64(index)))
        }
    }
}
