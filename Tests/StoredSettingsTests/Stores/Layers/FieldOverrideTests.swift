import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

struct FieldLayout: Codable, Equatable, Sendable, StoredValueConvertible {
    struct Margin: Codable, Equatable, Sendable {
        var top: Int
        var bottom: Int
    }
    var wrapColumn: Int
    var indent: Int
    var margin: Margin
}

struct EditorPreferences: Codable, Equatable, Sendable, StoredValueConvertible {
    var fontSize: Int
    var theme: String
}

struct FieldOverrideSettings: SettingsGroup {
    static let defaultLayout = FieldLayout(wrapColumn: 72, indent: 2, margin: .init(top: 0, bottom: 0))
    @Stored("layout", default: FieldOverrideSettings.defaultLayout)
    var layout: FieldLayout
    @Stored("editor", default: EditorPreferences(fontSize: 10, theme: "light"))
    var editor: EditorPreferences
    @Stored("editor.fontSize", default: 12)
    var editorFontSize: Int
}

/// A layer giving field overrides only, standing in for the environment's
/// (`APP_LAYOUT_INDENT=4`).
final class FieldOverridingDouble: FieldOverridingStore, OriginDescribingStore {
    let overrides: [String: [FieldOverride]]
    let whole: InMemoryStore

    init(_ overrides: [String: [FieldOverride]], whole: [String: StoredValue] = [:]) {
        self.overrides = overrides
        self.whole = InMemoryStore(whole)
    }

    func fieldOverrides(forKey key: String) -> [FieldOverride] { overrides[key] ?? [] }
    func value(forKey key: String) -> StoredValue? { whole.value(forKey: key) }
    func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) { (value(forKey: key), 0) }
    func setValue(_ value: StoredValue?, forKey key: String) throws {
        throw StorageError(.readOnly, key: key, location: "double")
    }
    func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        var value = value(forKey: key)
        return try body(&value)
    }
    func keys() -> [String] { whole.keys() }
    func changes() -> AsyncStream<StoredChange> { AsyncStream { $0.finish() } }
    var location: String? { "double" }
    func origin(forKey key: String) -> String? { value(forKey: key) == nil ? nil : "double \(key)" }
}

@Suite(.timeLimit(TestScale.hangGuard))
struct FieldOverrideTests {
    private func indentOverride(_ value: String, origin: String = "environment variable APP_LAYOUT_INDENT")
        -> FieldOverridingDouble
    {
        FieldOverridingDouble(["layout": [FieldOverride(path: ["indent"], value: .string(value), origin: origin)]])
    }

    private func fileWithLayout() -> InMemoryStore {
        InMemoryStore([
            "layout": .dictionary([
                "wrapColumn": .int(60), "indent": .int(2), "margin": .dictionary(["top": .int(1), "bottom": .int(1)]),
            ])
        ])
    }

    @Test func anOptionNamingAFieldOverridesOnlyThatField() {
        for arguments in [["--layout.indent", "4"], ["--layout.indent=4"], ["--set", "layout.indent=4"]] {
            let file = fileWithLayout()
            let commandLine = CommandLineStore(arguments: arguments, declaredBy: FieldOverrideSettings.self)
            #expect(commandLine.errors.isEmpty)
            let store = LayeredStore([commandLine, file], writingTo: file, declaredBy: FieldOverrideSettings.self)
            let settings = FieldOverrideSettings(store: store)
            #expect(settings.layout == FieldLayout(wrapColumn: 60, indent: 4, margin: .init(top: 1, bottom: 1)))
        }
    }

    @Test func deeperPathsAndKebabFieldNamesAreOverridden() {
        let file = fileWithLayout()
        let commandLine = CommandLineStore(
            arguments: ["--layout.margin.top", "5", "--layout.wrap-column=80"], declaredBy: FieldOverrideSettings.self)
        #expect(commandLine.errors.isEmpty)
        let store = LayeredStore([commandLine, file], writingTo: file, declaredBy: FieldOverrideSettings.self)
        #expect(
            FieldOverrideSettings(store: store).layout
                == FieldLayout(wrapColumn: 80, indent: 2, margin: .init(top: 5, bottom: 1)))
    }

    @Test func aFieldOfNoDeclaredStructureIsAnError() throws {
        let commandLine = CommandLineStore(
            arguments: ["--layout.indnt", "4"], declaredBy: FieldOverrideSettings.self)
        let problem = try #require(commandLine.errors.first)
        #expect(problem.code == .unknownKey)
        #expect(problem.key == "layout.indnt")
        #expect(problem.message == "--layout.indnt names no field of 'layout' (did you mean '--layout.indent'?)")
    }

    @Test func setNamesAFieldOfAStructuredOptionWithoutDeclaredKeys() {
        let commandLine = CommandLineStore(
            arguments: ["--set", "layout.indent=4", "--set", "other.key=1"],
            options: [.init(name: "layout", key: "layout", shape: .structure(fields: ["indent": .other]))])
        #expect(commandLine.errors.isEmpty)
        #expect(commandLine.fieldOverrides(forKey: "layout").map(\.path) == [["indent"]])
        #expect(commandLine.value(forKey: "other.key") == .string("1"))
    }

    @Test func aDeclaredKeyWithADotWinsOverANestedPath() {
        let file = InMemoryStore()
        let commandLine = CommandLineStore(
            arguments: ["--set", "editor.fontSize=3"], declaredBy: FieldOverrideSettings.self)
        let store = LayeredStore([commandLine, file], writingTo: file, declaredBy: FieldOverrideSettings.self)
        let settings = FieldOverrideSettings(store: store)
        #expect(settings.editorFontSize == 3)
        #expect(settings.editor == EditorPreferences(fontSize: 10, theme: "light"))
    }

    @Test func aFieldOverrideWithNoLayerHoldingTheKeyStartsFromTheDeclaredDefault() {
        let file = InMemoryStore()
        let store = LayeredStore([indentOverride("4"), file], writingTo: file, declaredBy: FieldOverrideSettings.self)
        #expect(FieldOverrideSettings(store: store).layout.indent == 4)
        #expect(FieldOverrideSettings(store: store).layout.wrapColumn == 72)
        #expect(store.origin(forKey: "layout") == "default; indent: environment variable APP_LAYOUT_INDENT")
    }

    @Test func aPlainLayeredStoreStartsFieldOverridesFromAnEmptyDictionary() {
        let file = InMemoryStore()
        let store = LayeredStore([indentOverride("4"), file], writingTo: file)
        #expect(store.value(forKey: "layout") == .dictionary(["indent": .string("4")]))
    }

    @Test func aWholeValueAboveAFieldOverrideWinsOverIt() {
        let file = fileWithLayout()
        let whole = InMemoryStore(["layout": .string(#"{"wrapColumn":50,"indent":1,"margin":{"top":0,"bottom":0}}"#)])
        let store = LayeredStore(
            [whole, indentOverride("4"), file], writingTo: file, declaredBy: FieldOverrideSettings.self)
        #expect(FieldOverrideSettings(store: store).layout.indent == 1)
        #expect(FieldOverrideSettings(store: store).layout.wrapColumn == 50)
    }

    @Test func aFieldOverrideAppliesOverJSONTextBelowIt() {
        let file = InMemoryStore()
        let environment = InMemoryStore([
            "layout": .string(#"{"wrapColumn":50,"indent":1,"margin":{"top":0,"bottom":0}}"#)
        ])
        let store = LayeredStore(
            [indentOverride("4"), environment, file], writingTo: file, declaredBy: FieldOverrideSettings.self)
        #expect(
            FieldOverrideSettings(store: store).layout
                == FieldLayout(wrapColumn: 50, indent: 4, margin: .init(top: 0, bottom: 0)))
    }

    @Test func theHigherFieldOverrideWinsAndOriginsNameEachField() {
        let file = fileWithLayout()
        let commandLine = CommandLineStore(
            arguments: ["--layout.indent", "8", "--layout.margin.top=3"], declaredBy: FieldOverrideSettings.self)
        let store = LayeredStore(
            [commandLine, indentOverride("4"), file], writingTo: file, declaredBy: FieldOverrideSettings.self)
        #expect(FieldOverrideSettings(store: store).layout.indent == 8)
        #expect(
            store.origin(forKey: "layout")
                == "memory; indent: --layout.indent on the command line; margin.top: --layout.margin.top on the command line"
        )
    }

    @Test func anUpdateNeverCarriesAFieldOverrideIntoTheWritableLayer() throws {
        let file = fileWithLayout()
        let store = LayeredStore([indentOverride("4"), file], writingTo: file, declaredBy: FieldOverrideSettings.self)
        let settings = FieldOverrideSettings(store: store)
        try settings.$layout.update { $0.wrapColumn = 90 }
        #expect(file.value(forKey: "layout")?.dictionaryValue?["indent"] == .int(2))
        settings.layout.margin.top = 7
        #expect(file.value(forKey: "layout")?.dictionaryValue?["indent"] == .int(2))
        #expect(file.value(forKey: "layout")?.dictionaryValue?["wrapColumn"] == .int(90))
        #expect(settings.layout == FieldLayout(wrapColumn: 90, indent: 4, margin: .init(top: 7, bottom: 1)))
    }

    @Test func changesDeliverTheMergedValue() async throws {
        let file = fileWithLayout()
        let store = LayeredStore([indentOverride("4"), file], writingTo: file, declaredBy: FieldOverrideSettings.self)
        let changes = store.changes()
        try file.setValue(
            .dictionary([
                "wrapColumn": .int(30), "indent": .int(2), "margin": .dictionary(["top": .int(0), "bottom": .int(0)]),
            ]), forKey: "layout")
        var iterator = changes.makeAsyncIterator()
        let change = try #require(await iterator.next())
        #expect(change.key == "layout")
        #expect(change.value?.dictionaryValue?["indent"] == .string("4"))
        #expect(change.value?.dictionaryValue?["wrapColumn"] == .int(30))
    }
}

extension StoredValue {
    fileprivate var dictionaryValue: [String: StoredValue]? {
        if case .dictionary(let fields) = self { return fields }
        return nil
    }
}
