import Foundation
import StoredSettings
import Testing

/// The format a store picks from its file's name when none is given: the one `URL`'s
/// `pathExtension` names, read without building a URL.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreFormatTests {
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

    @Test func aFolderGivenWithATrailingSlashIsNamedByItsLastComponent() throws {
        let folder = try ScratchFolder()
        let store = try FileStore(
            url: URL(fileURLWithPath: folder.file("missing.plist").path + "/"), options: quietOptions)
        #expect(store.format == .propertyList)
    }
}
