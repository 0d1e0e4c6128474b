import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

@Suite(.timeLimit(TestScale.hangGuard))
struct CommandLineStoreTests {
    struct ParseCase: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var values: [String: StoredValue] = [:]
        var remaining: [String] = []
        var errors: [StorageError.Code] = []
        var testDescription: String { arguments.joined(separator: " ") }
    }

    @Test(arguments: [
        ParseCase(arguments: ["--set", "autoReload=true"], values: ["autoReload": .string("true")]),
        ParseCase(arguments: ["--set=theme=dark"], values: ["theme": .string("dark")]),
        ParseCase(arguments: ["--set", "theme=a=b"], values: ["theme": .string("a=b")]),
        ParseCase(arguments: ["--set", "apiToken="], values: ["apiToken": .string("")]),
        ParseCase(arguments: ["--set", "pageSize=1", "--set", "pageSize=2"], values: ["pageSize": .string("2")]),
        ParseCase(arguments: ["--page-size", "5"], values: ["pageSize": .string("5")]),
        ParseCase(arguments: ["--page-size=-5"], values: ["pageSize": .string("-5")]),
        ParseCase(arguments: ["--page-size", "-5"], values: ["pageSize": .string("-5")]),
        ParseCase(arguments: ["--auto-reload"], values: ["autoReload": .bool(true)]),
        ParseCase(arguments: ["--no-auto-reload"], values: ["autoReload": .bool(false)]),
        ParseCase(arguments: ["--auto-reload=no"], values: ["autoReload": .string("no")]),
        ParseCase(
            arguments: ["--auto-reload", "file.txt"], values: ["autoReload": .bool(true)], remaining: ["file.txt"]),
        ParseCase(
            arguments: ["--theme", "dark", "--no-auto-reload", "--auto-reload"],
            values: ["theme": .string("dark"), "autoReload": .bool(true)]),
        ParseCase(arguments: ["write", "--verbose", "-x", "text"], remaining: ["write", "--verbose", "-x", "text"]),
        ParseCase(arguments: ["--no-theme"], remaining: ["--no-theme"]),
        ParseCase(arguments: ["a", "--", "--set", "x=1"], remaining: ["a", "--", "--set", "x=1"]),
        ParseCase(arguments: ["--set"], errors: [.invalidArgument]),
        ParseCase(arguments: ["--set", "--verbose"], remaining: ["--verbose"], errors: [.invalidArgument]),
        ParseCase(arguments: ["--set", "autoReload"], errors: [.invalidArgument]),
        ParseCase(arguments: ["--set", "=true"], errors: [.invalidKey]),
        ParseCase(arguments: ["--set", "a\u{1}b=1"], errors: [.invalidKey]),
        ParseCase(arguments: ["--page-size"], errors: [.invalidArgument]),
        ParseCase(arguments: ["--no-auto-reload=yes"], errors: [.invalidArgument]),
        ParseCase(
            arguments: ["--set", "x", "--set", "pin=2"], values: ["pin": .string("2")], errors: [.invalidArgument]),
    ])
    func parsesArguments(_ parse: ParseCase) {
        let store = CommandLineStore(arguments: parse.arguments, declaredBy: ToolSettings.self)
        var values: [String: StoredValue] = [:]
        for key in store.keys() { values[key] = store.value(forKey: key) }
        #expect(values == parse.values)
        #expect(store.remainingArguments == parse.remaining)
        #expect(store.errors.map(\.code) == parse.errors)
    }

    @Test func withoutADeclaredGroupSetTakesAnyKey() {
        let store = CommandLineStore(arguments: ["--set", "editor.font size=12", "--set", "query=a=b"])
        #expect(store.errors.isEmpty)
        #expect(store.value(forKey: "editor.font size") == .string("12"))
        #expect(store.value(forKey: "query") == .string("a=b"))
    }

    @Test func withoutADeclaredGroupOnlySetIsRead() {
        let store = CommandLineStore(arguments: ["--page-size", "5", "--set", "pageSize=7"])
        #expect(store.value(forKey: "pageSize") == .string("7"))
        #expect(store.remainingArguments == ["--page-size", "5"])
    }

    @Test func validateThrowsTheFirstErrorWithAClearMessage() throws {
        let store = CommandLineStore(arguments: ["--set", "autoReload"])
        let error = try #require(throws: StorageError.self) { try store.validate() }
        #expect(error.code == .invalidArgument)
        #expect(error.description == "command line: --set expects key=value, but the argument after it has no '='.")
        try CommandLineStore(arguments: ["--set", "a=1"]).validate()
    }

    @Test func errorsNeverContainTheValue() {
        let store = CommandLineStore(
            arguments: ["--set", "=hunter2", "--no-auto-reload=hunter2"], declaredBy: ToolSettings.self)
        #expect(store.errors.count == 2)
        for error in store.errors {
            #expect(!error.description.contains("hunter2"))
        }
    }

    @Test func originNamesTheArgumentWithoutTheValue() {
        let store = CommandLineStore(
            arguments: ["--set", "apiToken=hunter2", "--page-size", "3", "--no-auto-reload"],
            declaredBy: ToolSettings.self
        )
        #expect(store.origin(forKey: "apiToken") == "--set apiToken=… on the command line")
        #expect(store.origin(forKey: "pageSize") == "--page-size on the command line")
        #expect(store.origin(forKey: "autoReload") == "--no-auto-reload on the command line")
        #expect(store.origin(forKey: "theme") == nil)
    }

    @Test func writesThrowReadOnly() throws {
        let store = CommandLineStore(arguments: ["--set", "a=1"])
        let error = try #require(throws: StorageError.self) { try store.setValue(nil, forKey: "a") }
        #expect(error.code == .readOnly)
        #expect(error.key == "a")
        #expect(store.value(forKey: "a") == .string("1"))
    }

    @Test func valuesDecodeThroughTheWrapper() {
        let store = CommandLineStore(
            arguments: ["--set", "theme=light", "--page-size", "7", "--auto-reload", "--set", #"tags=["a","b"]"#],
            declaredBy: ToolSettings.self
        )
        let settings = ToolSettings(store: store)
        #expect(settings.theme == .light)
        #expect(settings.pageSize == 7)
        #expect(settings.autoReload)
        #expect(settings.tags == ["a", "b"])
    }
}
