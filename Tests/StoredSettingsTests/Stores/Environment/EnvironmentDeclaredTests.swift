import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// A structured setting's value, overridden one field at a time from the environment.
struct EnvironmentLayout: Codable, Sendable, Equatable, StoredValueConvertible {
    var indent: Int
    var wrapColumn: Int
}

struct EnvironmentMargins: Codable, Sendable, Equatable, StoredValueConvertible {
    var top: Int
    var bottom: Int
}

struct EnvironmentPage: Codable, Sendable, Equatable, StoredValueConvertible {
    var margins: EnvironmentMargins
    var title: String
}

/// The settings a declared environment store knows.
struct EnvironmentSettings: SettingsGroup {
    @Stored("layout", default: EnvironmentLayout(indent: 2, wrapColumn: 80))
    var layout: EnvironmentLayout
    @Stored("page", default: EnvironmentPage(margins: EnvironmentMargins(top: 1, bottom: 1), title: "Notes"))
    var page: EnvironmentPage
    @Stored("editor", default: "vi")
    var editor: String
    @Stored("hosts", default: [])
    var hosts: [String]
    @Stored("retries", default: 3)
    var retries: Int
}

@Suite(.timeLimit(TestScale.hangGuard))
struct EnvironmentDeclaredTests {
    @Test func aFieldVariableOverridesOneFieldOfAStructuredSetting() {
        let store = EnvironmentStore(
            prefix: "APP",
            environment: ["APP_LAYOUT_INDENT": "4", "APP_LAYOUT_WRAP_COLUMN": "72", "APP_PAGE_MARGINS_TOP": "9"],
            declaredBy: EnvironmentSettings.self)
        #expect(
            store.fieldOverrides(forKey: "layout") == [
                FieldOverride(path: ["indent"], value: .string("4"), origin: "environment variable APP_LAYOUT_INDENT"),
                FieldOverride(
                    path: ["wrapColumn"], value: .string("72"), origin: "environment variable APP_LAYOUT_WRAP_COLUMN"),
            ])
        #expect(
            store.fieldOverrides(forKey: "page") == [
                FieldOverride(
                    path: ["margins", "top"], value: .string("9"), origin: "environment variable APP_PAGE_MARGINS_TOP")
            ])
        #expect(store.value(forKey: "layout") == nil)
        #expect(store.keys().isEmpty)
        #expect(store.warnings.isEmpty)
        #expect(store.errors.isEmpty)
    }

    @Test func aWholeInnerStructureComesBeforeItsOwnFields() {
        let store = EnvironmentStore(
            prefix: "APP",
            environment: ["APP_PAGE_MARGINS_TOP": "9", "APP_PAGE_MARGINS": #"{"top": 2, "bottom": 3}"#],
            declaredBy: EnvironmentSettings.self)
        #expect(store.fieldOverrides(forKey: "page").map(\.path) == [["margins"], ["margins", "top"]])
    }

    @Test func withoutDeclarationsThereAreNoFieldOverridesAndNoWarnings() {
        let store = EnvironmentStore(prefix: "APP", environment: ["APP_LAYOUT_INDENT": "4", "APP_EDITR": "vim"])
        #expect(store.fieldOverrides(forKey: "layout").isEmpty)
        #expect(store.warnings.isEmpty)
        #expect(store.value(forKey: "layoutIndent") == .string("4"))
    }

    @Test func aDeclaredKeysOwnVariableWinsOverAFieldPath() {
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_LAYOUT_INDENT": "4"],
            declarations: [
                SettingDeclaration(key: "layout", shape: .structure(fields: ["indent": .other])),
                SettingDeclaration(key: "layoutIndent", shape: .other),
            ])
        #expect(store.fieldOverrides(forKey: "layout").isEmpty)
        #expect(store.value(forKey: "layoutIndent") == .string("4"))
        #expect(store.warnings.isEmpty)
    }

    @Test func amongFieldPathsTheLongestKeyWins() {
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_PAGE_MARGINS_TOP": "9"],
            declarations: [
                SettingDeclaration(key: "page", shape: .structure(fields: ["marginsTop": .other])),
                SettingDeclaration(key: "pageMargins", shape: .structure(fields: ["top": .other])),
            ])
        #expect(store.fieldOverrides(forKey: "page").isEmpty)
        #expect(store.fieldOverrides(forKey: "pageMargins").map(\.path) == [["top"]])
        #expect(store.warnings.isEmpty)
    }

    @Test func aNameMatchingTwoFieldsOfOneSettingIsUsedForNeitherWithAWarning() throws {
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_PAGE_MARGINS_TOP": "9"],
            declarations: [
                SettingDeclaration(
                    key: "page",
                    shape: .structure(fields: ["margins": .structure(fields: ["top": .other]), "marginsTop": .other]))
            ])
        #expect(store.fieldOverrides(forKey: "page").isEmpty)
        let warning = try #require(store.warnings.first)
        #expect(store.warnings.count == 1)
        #expect(warning.code == .ambiguousVariable)
        #expect(warning.description.contains("APP_PAGE_MARGINS_TOP"))
        #expect(warning.description.contains("'margins.top'"))
        #expect(warning.description.contains("'marginsTop'"))
        #expect(!warning.description.contains("9"))
    }

    @Test func unknownPrefixedVariablesAreWarningsWithADidYouMeanHint() throws {
        let store = EnvironmentStore(
            prefix: "APP",
            environment: [
                "APP_EDITR": "vim", "APP_ZQXJ": "", "APP_RETRIES": "2", "APP_LAYOUT_INDENT": "4",
                "APP_HOSTS_FILE": "/nonexistent", "OTHER_EDITR": "x", "APP_LAYOUT_INDNT": "5",
            ],
            declaredBy: EnvironmentSettings.self)
        #expect(store.warnings.map(\.code) == [.unknownKey, .unknownKey, .unknownKey])
        #expect(
            store.warnings.map(\.description) == [
                "environment variable APP_EDITR: no setting reads this variable (did you mean APP_EDITOR?).",
                "environment variable APP_LAYOUT_INDNT: no setting reads this variable (did you mean APP_LAYOUT_INDENT?).",
                "environment variable APP_ZQXJ: no setting reads this variable.",
            ])
        #expect(store.warnings.allSatisfy { !$0.description.contains("vim") })
    }

    @Test func listsFillFromCommaSeparatedTextThroughADeclaredStore() throws {
        let file = try TemporaryFileStore()
        let environment = EnvironmentStore(
            prefix: "APP", environment: ["APP_HOSTS": "a,b"], declaredBy: EnvironmentSettings.self)
        let settings = EnvironmentSettings(store: LayeredStore([environment, file], writingTo: file))
        #expect(try settings.$hosts.load() == ["a", "b"])
        #expect(environment.warnings.isEmpty)
    }

    @Test func emptyVariablesCountAsUnsetByDefault() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.string("nano"), forKey: "editor")
        let environment = EnvironmentStore(prefix: "APP", environment: ["APP_EDITOR": "", "APP_HOSTS": ""])
        let settings = EnvironmentSettings(store: LayeredStore([environment, file], writingTo: file))
        #expect(try settings.$editor.load() == "nano")
        #expect(environment.emptyValues == .unset)
        #expect(environment.keys().isEmpty)
    }

    @Test func theEmptyValuesOptInBlanksAStringEmptiesAListAndIsAMismatchForAnInt() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.string("nano"), forKey: "editor")
        try file.setValue(.array([.string("h")]), forKey: "hosts")
        let environment = EnvironmentStore(
            prefix: "APP", environment: ["APP_EDITOR": "", "APP_HOSTS": "", "APP_RETRIES": ""], emptyValues: .empty)
        let settings = EnvironmentSettings(store: LayeredStore([environment, file], writingTo: file))
        #expect(try settings.$editor.load() == "")
        #expect(try settings.$hosts.load() == [])
        let error = try #require(throws: StorageError.self) { try settings.$retries.load() }
        #expect(error.code == .typeMismatch)
        #expect(error.location == "environment variable APP_RETRIES")
        #expect(environment.origin(forKey: "editor") == "environment variable APP_EDITOR")
        #expect(file.value(forKey: "editor") == .string("nano"))
    }

    @Test func theEmptyValuesOptInWorksWithDeclarations() {
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_EDITOR": ""], declaredBy: EnvironmentSettings.self, emptyValues: .empty)
        #expect(store.value(forKey: "editor") == .string(""))
        #expect(store.warnings.isEmpty)
    }

    @Test func aStoreWithNoVariableOfItsPrefixReadsNothingYetNamesEveryVariable() throws {
        // `APP_` alone, `APPLE` and `app_editor` do not carry the prefix `APP_`.
        let store = EnvironmentStore(
            prefix: "APP", environment: ["HOME": "/home/a", "APPLE": "1", "APP_": "x", "app_editor": "ed"],
            declaredBy: EnvironmentSettings.self)
        for key in ["layout", "page", "editor", "hosts", "retries"] {
            #expect(store.value(forKey: key) == nil)
            #expect(store.origin(forKey: key) == nil)
            #expect(store.fieldOverrides(forKey: key).isEmpty)
        }
        #expect(store.variableName(forKey: "editor") == "APP_EDITOR")
        #expect(store.variableName(forKey: "layout") == "APP_LAYOUT")
        #expect(store.keys().isEmpty)
        #expect(store.warnings.isEmpty)
        #expect(store.errors.isEmpty)
        let error = try #require(throws: StorageError.self) { try store.setValue(.string("x"), forKey: "editor") }
        #expect(error.location == "environment variable APP_EDITOR")
    }

    @Test func aPrefixedVariableThatIsOnlyEmptyIsStillCheckedAgainstTheDeclarations() {
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_EDITOR": "", "APP_COLOUR": ""], declaredBy: EnvironmentSettings.self)
        #expect(store.value(forKey: "editor") == nil)
        #expect(store.warnings.map(\.location) == ["environment variable APP_COLOUR"])
        #expect(store.warnings.first?.code == .unknownKey)
    }
}
