import Foundation
import StoredCLI
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// The verbs on UserDefaults suites (`--domain NAME`), and `domains`.
@Suite(.timeLimit(.hangGuard))
struct DomainTests {
    @Test(.enabled(if: namedSuitesStayInTestFolders, "on Apple platforms a named suite is in the real preferences"))
    func writesReadsListsAndDeletesInASuite() throws {
        let suite = TemporarySuite()
        expectSuccess(stored("write", "--domain", suite.name, "launchCount", "-int", "3"))
        expectSuccess(stored("write", "--domain", suite.name, "theme", "dark"))
        expectSuccess(stored("read", "--domain", suite.name, "launchCount"), output: "3\n")
        expectSuccess(
            stored("read", "--domain", suite.name), output: "{\n  \"launchCount\": 3,\n  \"theme\": \"dark\"\n}\n")
        expectSuccess(stored("keys", "--domain", suite.name), output: "launchCount\ntheme\n")
        #expect(UserDefaults(suiteName: suite.name)?.integer(forKey: "launchCount") == 3)
        expectSuccess(stored("delete", "--domain", suite.name, "theme"))
        expectFailure(
            stored("read", "--domain", suite.name, "theme"), .notFound,
            line: "stored: Setting 'theme' in UserDefaults domain \(suite.name): no value is stored.")
        expectSuccess(stored("delete", "--domain", suite.name))
        expectSuccess(stored("read", "--domain", suite.name), output: "{}\n")
    }

    @Test(.enabled(if: namedSuitesStayInTestFolders, "on Apple platforms a named suite is in the real preferences"))
    func badValueNamesTheDomainAndChangesNothing() throws {
        let suite = TemporarySuite()
        expectSuccess(stored("write", "--domain", suite.name, "count", "-int", "1"))
        expectFailure(
            stored("write", "--domain", suite.name, "count", "-int", "abc"), .dataError,
            line:
                "stored: Setting 'count' in UserDefaults domain \(suite.name): expected Int, found string: \"abc\" is not a whole number."
        )
        expectSuccess(stored("read", "--domain", suite.name, "count"), output: "1\n")
    }

    @Test(.enabled(if: namedSuitesStayInTestFolders, "on Apple platforms a named suite is in the real preferences"))
    func importsIntoASuiteAndExportsItBack() throws {
        let suite = TemporarySuite()
        expectSuccess(stored("import", "--domain", suite.name, "-", input: #"{"a": [1, 2], "b": {"c": "d"}}"#))
        expectSuccess(
            stored("export", "--domain", suite.name),
            output: """
                {
                  "a": [
                    1,
                    2
                  ],
                  "b": {
                    "c": "d"
                  }
                }

                """)
    }

    @Test func listsThePropertyListsOfTheConfigurationFolder() throws {
        let home = try TemporaryFolder()
        #if canImport(Darwin)
        let subfolder = "Library/Preferences/"
        let environment = ["HOME": home.url.path]
        #else
        let subfolder = "config/"
        let environment = ["XDG_CONFIG_HOME": home.path("config"), "HOME": home.url.path]
        #endif
        try FileManager.default.createDirectory(
            atPath: home.path(subfolder + "folder.plist"), withIntermediateDirectories: true)
        try home.write(subfolder + "com.example.b.plist", "<plist/>")
        try home.write(subfolder + "com.example.a.plist", "<plist/>")
        try home.write(subfolder + "settings.json", "{}")
        try home.write(subfolder + ".hidden.plist", "<plist/>")
        expectSuccess(stored("domains", environment: environment), output: "com.example.a\ncom.example.b\n")
    }

    @Test func listsNothingWhenTheFolderIsMissing() throws {
        let folder = try TemporaryFolder()
        let missing = folder.path("absent")
        expectSuccess(stored("domains", environment: ["XDG_CONFIG_HOME": missing, "HOME": missing]), output: "")
    }

    #if !canImport(Darwin)
    @Test(.enabled(if: namedSuitesStayInTestFolders, "on Apple platforms a named suite is in the real preferences"))
    func listsASuiteWrittenThroughUserDefaults() throws {
        let suite = TemporarySuite()
        expectSuccess(stored("write", "--domain", suite.name, "k", "v"))
        let environment = ProcessInfo.processInfo.environment
        let run = stored("domains", environment: environment)
        expectSuccess(run)
        #expect(run.output.split(separator: "\n").contains(Substring(suite.name)))
    }
    #endif
}
