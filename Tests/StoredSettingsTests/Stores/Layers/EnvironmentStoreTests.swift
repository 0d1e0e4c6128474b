import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

@Suite(.timeLimit(TestScale.hangGuard))
struct EnvironmentStoreTests {
    struct MappingCase: CustomTestStringConvertible, Sendable {
        var key: String
        var variable: String?
        var testDescription: String { "\(key) → \(variable ?? "nil")" }
    }

    @Test(arguments: [
        MappingCase(key: "autoReload", variable: "APP_AUTO_RELOAD"),
        MappingCase(key: "editor.fontSize", variable: "APP_EDITOR_FONT_SIZE"),
        MappingCase(key: "httpURL", variable: "APP_HTTP_URL"),
        MappingCase(key: "HTTPServer", variable: "APP_HTTP_SERVER"),
        MappingCase(key: "userIDs", variable: "APP_USER_IDS"),
        MappingCase(key: "URLsEnabled", variable: "APP_URLS_ENABLED"),
        MappingCase(key: "http2Enabled", variable: "APP_HTTP2_ENABLED"),
        MappingCase(key: "utf8", variable: "APP_UTF8"),
        MappingCase(key: "theme", variable: "APP_THEME"),
        MappingCase(key: "auto_reload", variable: "APP_AUTO_RELOAD"),
        MappingCase(key: "auto-reload", variable: "APP_AUTO_RELOAD"),
        MappingCase(key: "window/size width", variable: "APP_WINDOW_SIZE_WIDTH"),
        MappingCase(key: "A", variable: "APP_A"),
        MappingCase(key: "☕️", variable: nil),
        MappingCase(key: "user@host", variable: nil),
        MappingCase(key: "naïve", variable: nil),
        MappingCase(key: "...", variable: nil),
    ])
    func mapsKeysToVariableNames(_ mapping: MappingCase) {
        let store = EnvironmentStore(prefix: "APP", environment: [:])
        #expect(store.variableName(forKey: mapping.key) == mapping.variable)
    }

    @Test(arguments: ["APP", "APP_"])
    func addsOneUnderscoreAfterThePrefix(prefix: String) {
        let store = EnvironmentStore(prefix: prefix, environment: ["APP_THEME": "dark"])
        #expect(store.prefix == "APP_")
        #expect(store.value(forKey: "theme") == .string("dark"))
    }

    @Test func readsOnlyVariablesWithThePrefixAsStrings() {
        let store = EnvironmentStore(
            prefix: "APP",
            environment: ["APP_PAGE_SIZE": "42", "OTHER_PAGE_SIZE": "7", "PAGE_SIZE": "9"]
        )
        #expect(store.value(forKey: "pageSize") == .string("42"))
        #expect(store.value(forKey: "theme") == nil)
        #expect(
            EnvironmentStore(prefix: "OTHER", environment: ["APP_PAGE_SIZE": "42"]).value(forKey: "pageSize") == nil)
    }

    @Test func treatsAnEmptyVariableAsUnset() {
        let store = EnvironmentStore(prefix: "APP", environment: ["APP_THEME": ""])
        #expect(store.value(forKey: "theme") == nil)
        #expect(store.origin(forKey: "theme") == nil)
        #expect(store.keys().isEmpty)
    }

    @Test func listsKeysReadBackFromVariableNames() {
        let store = EnvironmentStore(
            prefix: "APP",
            environment: ["APP_AUTO_RELOAD": "1", "APP_EDITOR_FONT_SIZE": "12", "APP_THEME": "dark", "HOME": "/"]
        )
        #expect(Set(store.keys()) == ["autoReload", "editorFontSize", "theme"])
        for key in store.keys() {
            #expect(store.value(forKey: key) != nil)
        }
    }

    @Test func writesThrowReadOnlyNamingTheVariable() throws {
        let store = EnvironmentStore(prefix: "APP", environment: ["APP_AUTO_RELOAD": "1"])
        let error = try #require(throws: StorageError.self) {
            try store.setValue(.bool(false), forKey: "autoReload")
        }
        #expect(error.code == .readOnly)
        #expect(error.key == "autoReload")
        #expect(error.location == "environment variable APP_AUTO_RELOAD")
        #expect(error.description.contains("APP_AUTO_RELOAD"))
        #expect(store.value(forKey: "autoReload") == .string("1"))
    }

    @Test func updateThatChangesNothingSucceedsAndOneThatChangesThrows() throws {
        let store = EnvironmentStore(prefix: "APP", environment: ["APP_PAGE_SIZE": "3"])
        let seen = try store.update(forKey: "pageSize") { $0 }
        #expect(seen == .string("3"))
        let error = try #require(throws: StorageError.self) {
            try store.update(forKey: "pageSize") { $0 = .int(4) }
        }
        #expect(error.code == .readOnly)
    }

    @Test func valuesDecodeLenientlyThroughTheWrapper() throws {
        let store = EnvironmentStore(
            prefix: "APP",
            environment: [
                "APP_AUTO_RELOAD": "yes",
                "APP_PAGE_SIZE": "42",
                "APP_THEME": "dark",
                "APP_LAST_OPENED": "2025-02-03T04:05:06.25Z",
                "APP_TAGS": #"["work", "home"]"#,
            ])
        let settings = ToolSettings(store: store)
        let reports = CapturedReports()
        reports.capture {
            #expect(settings.autoReload == true)
            #expect(settings.pageSize == 42)
            #expect(settings.theme == .dark)
            #expect(settings.tags == ["work", "home"])
        }
        let lastOpened = try #require(try settings.$lastOpened.load())
        #expect(lastOpened.timeIntervalSince1970 == 1_738_555_506.25)
        #expect(reports.all.isEmpty)
    }

    @Test func aMalformedVariableIsReportedNamingTheVariable() throws {
        let store = EnvironmentStore(prefix: "APP", environment: ["APP_PAGE_SIZE": "many"])
        let settings = ToolSettings(store: store)
        let reports = CapturedReports()
        reports.capture { #expect(settings.pageSize == 20) }
        let error = try #require(reports.all.first)
        #expect(error.code == .typeMismatch)
        #expect(error.location == "environment variable APP_PAGE_SIZE")
        #expect(
            error.description
                == "Setting 'pageSize' in environment variable APP_PAGE_SIZE: expected Int (a whole number), found string \"many\"."
        )
    }

    @Test func describesTheOriginOfSetVariablesOnly() {
        let store = EnvironmentStore(prefix: "APP", environment: ["APP_AUTO_RELOAD": "1"])
        #expect(store.origin(forKey: "autoReload") == "environment variable APP_AUTO_RELOAD")
        #expect(store.origin(forKey: "theme") == nil)
        #expect(store.location == "environment")
    }

    @Test func defaultsToTheProcessEnvironment() {
        let store = EnvironmentStore(prefix: "")
        let path = ProcessInfo.processInfo.environment["PATH"]
        #expect(store.value(forKey: "path") == path.map(StoredValue.string))
    }
}
