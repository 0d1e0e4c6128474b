import StoredSettings
import StoredSettingsCommandLine
import Testing

/// How a key's words are found, for its environment variable (`AUTO_RELOAD`) and its option
/// (`--auto-reload`).
@Suite(.timeLimit(TestScale.hangGuard))
struct KeyWordsTests {
    @Test(arguments: [
        ("autoReload", ["auto", "Reload"]),
        ("pageSize", ["page", "Size"]),
        ("HTTPServer", ["HTTP", "Server"]),
        ("serverURLs", ["server", "URLs"]),
        ("userIDs", ["user", "IDs"]),
        ("URLsOfMirrors", ["URLs", "Of", "Mirrors"]),
        ("v2Beta", ["v2", "Beta"]),
        ("retry3Times", ["retry3", "Times"]),
        ("layout.indent", ["layout", "indent"]),
        ("a-b_c/d:e f", ["a", "b", "c", "d", "e", "f"]),
        ("__x__", ["x"]),
        ("ABC", ["ABC"]),
        ("AbC", ["Ab", "C"]),
        ("x", ["x"]),
    ])
    func splitsAKeyIntoItsWords(_ key: String, _ words: [String]) {
        #expect(KeyWords.words(of: key) == words)
    }

    @Test(arguments: ["", "._-", "thé", "a+b", "tab\tkey", "line\r\nbreak", "emoji😀"])
    func aKeyWithoutWordsOrWithOtherCharactersHasNone(_ key: String) {
        #expect(KeyWords.words(of: key) == nil)
    }

    @Test func spellsTheVariableAndTheOption() {
        #expect(KeyWords.screamingSnakeCase("serverURLs") == "SERVER_URLS")
        #expect(KeyWords.kebabCase("HTTPServer") == "http-server")
        #expect(KeyWords.camelCase(fromSnakeCase: "AUTO__RELOAD") == "autoReload")
    }
}
