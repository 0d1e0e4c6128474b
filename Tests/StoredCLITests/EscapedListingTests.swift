import Foundation
import StoredCLI
import Testing

/// `keys` and `domains` print one line per name, whatever the name holds: a line break, a
/// terminal escape or another control character is written as an escape (`\n`, `\u{1B}`), as
/// `read` and every error line do, so a name can neither split its line nor drive the terminal.
@Suite(.timeLimit(.hangGuard))
struct EscapedListingTests {
    @Test func keysEscapesControlCharactersAndLineBreaks() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write(
            "odd.json", #"{"plain": 1, "two\nlines": 2, "\u001b[31mred": 3, "tab\there": 4, "nel\u0085": 5}"#)
        let before = folder.text("odd.json")
        expectSuccess(stored("keys", path), output: "\\u{1B}[31mred\nnel\\u{85}\nplain\ntab\\there\ntwo\\nlines\n")
        #expect(folder.text("odd.json") == before)
    }

    @Test func domainsEscapesControlCharactersInSuiteNames() throws {
        let home = try TemporaryFolder()
        #if canImport(Darwin)
        let subfolder = "Library/Preferences/"
        let environment = ["HOME": home.url.path]
        #else
        let subfolder = "config/"
        let environment = ["XDG_CONFIG_HOME": home.path("config"), "HOME": home.url.path]
        #endif
        try FileManager.default.createDirectory(atPath: home.path(subfolder), withIntermediateDirectories: true)
        try home.write(subfolder + "com.example.plain.plist", "<plist/>")
        try home.write(subfolder + "evil\n\u{1B}]0;title\u{07}.plist", "<plist/>")
        expectSuccess(
            stored("domains", environment: environment), output: "com.example.plain\nevil\\n\\u{1B}]0;title\\u{7}\n")
    }
}
