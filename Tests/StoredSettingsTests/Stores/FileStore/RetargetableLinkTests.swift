import Foundation
import StoredSettings
import Testing

/// Which paths pass a symbolic link someone may retarget: on Apple platforms a store on such a
/// path checks its file by polling, since a `kqueue` source stays on the vnode it opened.
struct RetargetableLinkTests {
    private let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("retargetable-\(UUID().uuidString)", isDirectory: true)

    private func makeFolders(_ names: String...) throws {
        for name in names {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(name), withIntermediateDirectories: true)
        }
    }

    @Test func aPathOfPlainFoldersPassesNoLink() throws {
        try makeFolders("a/b")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(!FileSystem.passesRetargetableLink(folder.appendingPathComponent("a/b/settings.json").path))
    }

    @Test(arguments: ["link/settings.json", "a/b/link", "link/../settings.json"])
    func aLinkAnywhereOnThePathIsRetargetable(_ relative: String) throws {
        try makeFolders("a/b", "data")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link").path, withDestinationPath: "data")
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("a/b/link").path, withDestinationPath: "../../data/settings.json")
        #expect(FileSystem.passesRetargetableLink(folder.appendingPathComponent(relative).path))
    }

    @Test func aRelativePathIsCheckedFromTheCurrentFolder() throws {
        try makeFolders("data")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link").path, withDestinationPath: "data")
        let current = FileManager.default.currentDirectoryPath
        let relative = String(repeating: "../", count: current.split(separator: "/").count) + folder.path.dropFirst()
        #expect(FileSystem.passesRetargetableLink(relative + "/link/settings.json"))
        #expect(!FileSystem.passesRetargetableLink(relative + "/data/settings.json"))
    }

    /// The links in `/` (Debian's `/bin`, macOS's `/var` and `/tmp`) are the system's own.
    @Test func aLinkInTheRootFolderIsNotCounted() throws {
        let links = try FileManager.default.contentsOfDirectory(atPath: "/").filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/" + $0)) != nil
        }
        try #require(!links.isEmpty, "this system has no link in / to check")
        try makeFolders("a")
        defer { try? FileManager.default.removeItem(at: folder) }
        // Enough `..` to climb from the folder to `/` (which `..` never leaves).
        let up = String(repeating: "../", count: 20)
        for link in links {
            #expect(!FileSystem.passesRetargetableLink("/\(link)/x"))
            // Reached through `..`, the link is still in `/`.
            #expect(!FileSystem.passesRetargetableLink("\(folder.path)/a/\(up)\(link)/x"))
        }
    }
}
