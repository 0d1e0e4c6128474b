import Foundation
import StoredSettings
import Testing

/// ``AtomicFile/Destination`` splits a path the way Foundation's path functions do, which the
/// temporary files' names and the folder's `fsync` depend on.
@Suite(.timeLimit(TestScale.hangGuard))
struct AtomicFileDestinationTests {
    @Test func splitsAPathAsFoundationsPathFunctionsDo() {
        let paths = [
            "/", "//", "/a", "/a/b", "a/b", "/a/b/settings.json", "/a//b", "//a", "/a/b/", "./a", "../a/b",
            "/a/./b", "/a/../b", "/é/ü.json", "/a b/c d",
        ]
        for path in paths {
            let (directory, name) = AtomicFile.Destination.split(path)
            #expect(directory == (path as NSString).deletingLastPathComponent, "\(path)")
            #expect(name == (path as NSString).lastPathComponent, "\(path)")
        }
    }

    /// What Apple's Foundation gives; Foundation on Linux traps on a path without a slash.
    @Test func aBareNameIsItsOwnLastComponent() {
        for name in ["a", "settings.json", ".", "..", ""] {
            #expect(AtomicFile.Destination.split(name) == ("", name))
        }
    }

    @Test func namesTheTemporaryFilesAfterTheFileInItsFolder() {
        let destination = AtomicFile.Destination(path: "/srv/tool/config/settings.json")
        #expect(destination.directory == "/srv/tool/config")
        #expect(destination.temporaryPathPrefix == "/srv/tool/config/.settings.json.tmp-")
        #expect(AtomicFile.Destination(path: "/settings.json").temporaryPathPrefix == "/.settings.json.tmp-")
        #expect(AtomicFile.Destination(path: "settings.json").temporaryPathPrefix == ".settings.json.tmp-")
    }
}
