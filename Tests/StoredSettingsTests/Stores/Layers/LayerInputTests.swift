import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// Hostile input for the environment, command-line and layered stores.
@Suite(.timeLimit(TestScale.hangGuard))
struct LayerInputTests {
    // MARK: - Environment

    struct Mapping: Sendable, CustomTestStringConvertible {
        var key: String
        var variable: String?
        var testDescription: String { key }
    }

    @Test(arguments: [
        Mapping(key: "HTTPServer2", variable: "APP_HTTP_SERVER2"),
        Mapping(key: "URLs", variable: "APP_URLS"),
        Mapping(key: "userIDs", variable: "APP_USER_IDS"),
        Mapping(key: "URLSession", variable: "APP_URL_SESSION"),
        Mapping(key: "auto reload", variable: "APP_AUTO_RELOAD"),
        Mapping(key: "a..b", variable: "APP_A_B"),
        Mapping(key: "_leading", variable: "APP_LEADING"),
        Mapping(key: "2fa", variable: "APP_2FA"),
        Mapping(key: "...", variable: nil),
        Mapping(key: "", variable: nil),
        Mapping(key: "café", variable: nil),
        Mapping(key: "a=b", variable: nil),
    ])
    func mapsHostileKeysToVariablesOrToNone(_ mapping: Mapping) {
        let environment = EnvironmentStore(prefix: "APP", environment: [:])
        #expect(environment.variableName(forKey: mapping.key) == mapping.variable)
    }

    @Test func keysThatShareAVariableReadTheSameValue() {
        let environment = EnvironmentStore(prefix: "APP", environment: ["APP_AUTO_RELOAD": "yes"])
        for key in ["autoReload", "auto.reload", "auto_reload", "auto-reload", "AutoReload", "AUTO_RELOAD"] {
            #expect(environment.value(forKey: key) == .string("yes"), "\(key)")
        }
        #expect(environment.value(forKey: "autoreload") == nil)
    }

    @Test func aLowercasePrefixIsMatchedExactly() {
        let environment = EnvironmentStore(prefix: "app", environment: ["APP_COUNT": "1", "app_COUNT": "2"])
        #expect(environment.prefix == "app_")
        #expect(environment.value(forKey: "count") == .string("2"))
    }

    @Test func valuesKeepEqualsSignsNewlinesAndHugeText() {
        let huge = String(repeating: "x", count: 1_000_000)
        let environment = EnvironmentStore(
            prefix: "APP", environment: ["APP_A": "k=v=w", "APP_B": "line\nbreak", "APP_C": huge]
        )
        #expect(environment.value(forKey: "a") == .string("k=v=w"))
        #expect(environment.value(forKey: "b") == .string("line\nbreak"))
        #expect(environment.value(forKey: "c") == .string(huge))
    }

    @Test(arguments: [
        (HostileKey.tags, #"["a","#),
        (HostileKey.tags, #"{"a":1}"#),
        (HostileKey.tags, #"["a", 1]"#),
        (HostileKey.tags, "a,,b"),
        (HostileKey.frame, #"{"width":1}"#),
        (HostileKey.frame, #"{"width":"x","height":1}"#),
        (HostileKey.frame, "[1,2]"),
        (HostileKey.count, "1.5"),
        (HostileKey.count, "99999999999999999999"),
        (HostileKey.enabled, "maybe"),
    ])
    func malformedVariablesAreReportedNamingTheVariableAndReadTheDefault(_ key: HostileKey, _ text: String) throws {
        let variable = "HOSTILE_" + (KeyWordsProbe.snake(key.rawValue))
        let tool = try HostileTool(environment: [variable: text])
        try tool.file.setValue(.string("from the file"), forKey: key.rawValue) // never used instead
        let reports = CapturedReports()
        let settings = tool.settings
        let readsTheDefault = reports.capture { () -> Bool in
            switch key {
            case .tags: settings.tags == settings.$tags.defaultValue
            case .frame: settings.frame == settings.$frame.defaultValue
            case .count: settings.count == settings.$count.defaultValue
            case .enabled: settings.enabled == settings.$enabled.defaultValue
            default: false
            }
        }
        #expect(readsTheDefault, "\(key) read something else than its default")
        let report = try #require(reports.all.first)
        #expect(reports.all.count == 1)
        #expect(report.key == key.rawValue)
        #expect(report.location == "environment variable \(variable)")
        #expect([StorageError.Code.typeMismatch, .dataCorrupted].contains(report.code))
    }

    // MARK: - Command line

    struct ParseCase: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var values: [String: StoredValue] = [:]
        var remaining: [String] = []
        var errors: [StorageError.Code] = []
        var testDescription: String { arguments.debugDescription }
    }

    @Test(arguments: [
        ParseCase(arguments: ["--set", "title==b"], values: ["title": .string("=b")]),
        ParseCase(arguments: ["--set=", "x"], remaining: ["x"], errors: [.invalidArgument]),
        ParseCase(arguments: ["--set", "=x"], errors: [.invalidKey]),
        ParseCase(arguments: ["x", "--set"], remaining: ["x"], errors: [.invalidArgument]),
        ParseCase(arguments: ["--count"], errors: [.invalidArgument]),
        ParseCase(arguments: ["--count="], values: ["count": .string("")]),
        ParseCase(arguments: ["--count", "-3"], values: ["count": .string("-3")]),
        ParseCase(arguments: ["--count", "--enabled"], values: ["enabled": .bool(true)], errors: [.invalidArgument]),
        ParseCase(arguments: ["--no-count"], remaining: ["--no-count"]),
        ParseCase(arguments: ["--title", "日本語 🎉"], values: ["title": .string("日本語 🎉")]),
        ParseCase(arguments: ["--title", "-"], values: ["title": .string("-")]),
        ParseCase(arguments: ["--", "--count", "3"], remaining: ["--", "--count", "3"]),
        ParseCase(
            arguments: ["b", "-x", "--zz", "a", "--", "--set", "q=1"],
            remaining: ["b", "-x", "--zz", "a", "--", "--set", "q=1"]),
        ParseCase(arguments: ["--count=1", "--count", "2", "--set", "count=3"], values: ["count": .string("3")]),
        ParseCase(arguments: ["--enabled", "--no-enabled"], values: ["enabled": .bool(false)]),
        ParseCase(arguments: ["--Count", "3"], remaining: ["--Count", "3"]),
        ParseCase(arguments: ["---count", "3"], remaining: ["---count", "3"]),
    ])
    func parsesHostileArguments(_ parse: ParseCase) {
        let store = CommandLineStore(arguments: parse.arguments, declaredBy: HostileSettings.self)
        var values: [String: StoredValue] = [:]
        for key in store.keys() { values[key] = store.value(forKey: key) }
        #expect(values == parse.values)
        #expect(store.remainingArguments == parse.remaining)
        #expect(store.errors.map(\.code) == parse.errors)
    }

    @Test func aSetKeyInAnotherSpellingOfADeclaredKeyIsAnErrorNotIgnored() throws {
        for spelling in ["page-size", "page_size", "PAGE_SIZE", "pagesize"] {
            let store = CommandLineStore(arguments: ["--set", "\(spelling)=3"], declaredBy: ToolSettings.self)
            let error = try #require(store.errors.first, "\(spelling)")
            #expect(error.code == .invalidKey)
            #expect(error.key == spelling)
            let hint =
                spelling == "pagesize" || spelling.contains(where: { "-_".contains($0) })
                ? "; it is spelled 'pageSize'" : ""
            #expect(
                error.description
                    == "Setting '\(spelling)' in --set on the command line: no declared setting uses this key\(hint).")
        }
    }

    struct HelpNamedSettings: SettingsGroup {
        @Stored(HelpKey.help, default: "") var help: String
        @Stored(HelpKey.set, default: false) var set: Bool
    }

    enum HelpKey: String, StorageKey {
        case help, set
    }

    @Test func settingsNamedHelpOrSetDoNotTakeOverThoseOptions() {
        let store = CommandLineStore(
            arguments: ["--help", "--set", "help=x", "--no-set"], declaredBy: HelpNamedSettings.self)
        #expect(store.remainingArguments == ["--help", "--no-set"])
        #expect(store.value(forKey: "help") == .string("x"))
        #expect(store.errors.isEmpty)
    }

    @Test func anUndeclaredSetKeyIsAnError() throws {
        let store = CommandLineStore(arguments: ["--set", "nope=1"], declaredBy: ToolSettings.self)
        let error = try #require(store.errors.first)
        #expect(error.code == .invalidKey)
        #expect(store.value(forKey: "nope") == nil)
        // Without a declared group every key is accepted.
        #expect(CommandLineStore(arguments: ["--set", "nope=1"]).errors.isEmpty)
    }

    // MARK: - Layers

    @Test(arguments: ["yes", "1", "true", "5", "[\"a\"]"])
    func aWrapperUpdateThatChangesNothingDoesNotCopyTheEnvironmentIntoTheFile(_ text: String) throws {
        let tool = try HostileTool(environment: ["HOSTILE_ENABLED": text, "HOSTILE_COUNT": text, "HOSTILE_TAGS": text])
        let reports = CapturedReports()
        try reports.capture {
            if text == "[\"a\"]" {
                try tool.settings.$tags.update { _ in }
            } else if text == "5" {
                try tool.settings.$count.update { _ in }
            } else {
                try tool.settings.$enabled.update { _ in }
            }
        }
        #expect(tool.file.keys().isEmpty)
        #expect(tool.fileBytes == nil)
    }

    @Test func aWrapperUpdateUnderAnEnvironmentValueCountsOnFromTheFile() throws {
        let tool = try HostileTool(environment: ["HOSTILE_COUNT": "5"])
        try tool.settings.$count.update { $0 += 1 }
        #expect(tool.file.value(forKey: "count") == .int(2)) // the default 1, plus one: the override is not copied
        #expect(tool.settings.count == 5) // the environment still wins
    }

    @Test(arguments: ["environment", "command line"])
    func anUpdateUnderAMalformedOverrideCountsOnFromTheFile(_ layer: String) throws {
        let tool = try HostileTool(
            environment: layer == "environment" ? ["HOSTILE_COUNT": "lots"] : [:],
            arguments: layer == "command line" ? ["--count", "lots"] : []
        )
        try tool.file.setValue(.int(2), forKey: "count")
        try tool.settings.$count.update { $0 += 1 }
        #expect(tool.file.value(forKey: "count") == .int(3))
    }

    @Test func anUpdateErrorNamesTheSameSourceAsTheGetterReport() throws {
        let tool = try HostileTool()
        try tool.file.setValue(.string("lots"), forKey: "count")
        let before = tool.fileBytes
        let reports = CapturedReports()
        _ = reports.capture { tool.settings.count }
        let reported = try #require(reports.all.first)
        let thrown = try #require(throws: StorageError.self) { try tool.settings.$count.update { $0 += 1 } }
        #expect(thrown.code == .typeMismatch)
        #expect(thrown.location == reported.location)
        #expect(thrown.location == tool.store.origin(forKey: "count"))
        #expect(tool.fileBytes == before)
    }

    @Test func manyTasksUpdatingThroughTheLayersCountExactly() async throws {
        let tool = try HostileTool(environment: ["HOSTILE_TITLE": "kept"])
        let settings = tool.settings
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<40 {
                group.addTask { try? settings.$count.update { $0 += 1 } }
            }
        }
        #expect(settings.count == 41)
        #expect(try tool.file.reopened().value(forKey: "count") == .int(41))
    }

    @Test func changesDeliverExactlyOncePerEffectiveChangeUnderConcurrentWrites() async throws {
        let top = InMemoryStore(["hidden": .int(0)])
        let file = InMemoryStore()
        let store = LayeredStore([top, file], writingTo: file)
        let changes = store.changes()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<30 {
                group.addTask {
                    try? store.setValue(.int(Int64(index)), forKey: "k\(index)")
                    try? store.setValue(.int(Int64(index)), forKey: "hidden") // under `top`: nothing
                }
            }
        }
        var received: [StoredChange] = []
        for await change in changes {
            received.append(change)
            if received.count == 30 { break }
        }
        #expect(Set(received.map(\.key)) == Set((0..<30).map { "k\($0)" }))
        #expect(!received.contains { $0.key == "hidden" })
    }

    @Test func originIsNilOnlyWhenNoLayerHoldsTheKey() throws {
        let tool = try HostileTool(environment: ["HOSTILE_TITLE": ""], arguments: ["--set", "count=2"])
        #expect(tool.store.origin(forKey: "title") == nil) // an empty variable counts as unset
        #expect(tool.store.origin(forKey: "count") == "--set count=… on the command line")
        let description = try #require(tool.settings.settingDescriptions().first { $0.key == "title" })
        #expect(description.origin == "default")
    }
}

/// The environment spelling of a key, for the tests' own table.
enum KeyWordsProbe {
    static func snake(_ key: String) -> String {
        EnvironmentStore(prefix: "", environment: [:]).variableName(forKey: key) ?? key
    }
}
