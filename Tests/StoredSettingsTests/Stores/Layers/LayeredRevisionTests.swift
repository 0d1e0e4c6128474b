import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// A structure that counts how often it is decoded; only ``LayeredRevisionTests`` uses it.
struct CountedLayout: Codable, Equatable, Sendable, StoredValueConvertible {
    static let decodes = Lock<Int>(0)

    var indent: Int
    var wrapColumn: Int

    init(indent: Int, wrapColumn: Int) {
        self.indent = indent
        self.wrapColumn = wrapColumn
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        indent = try container.decode(Int.self, forKey: .indent)
        wrapColumn = try container.decode(Int.self, forKey: .wrapColumn)
        Self.decodes.withLock { $0 += 1 }
    }
}

struct CountedLayoutSettings: SettingsGroup {
    @Stored("layout", default: CountedLayout(indent: 2, wrapColumn: 72)) var layout: CountedLayout
}

@Suite(.timeLimit(TestScale.hangGuard))
struct LayeredRevisionTests {
    @Test func aStructuredSettingReadThroughLayersIsDecodedOnceUntilALayerChanges() throws {
        let file = InMemoryStore(["layout": try CountedLayout(indent: 2, wrapColumn: 60).storedValue()])
        let commandLine = CommandLineStore(arguments: ["--layout.indent", "4"], declaredBy: CountedLayoutSettings.self)
        let environment = EnvironmentStore(
            prefix: "APP", environment: ["APP_OTHER": "1"], declaredBy: CountedLayoutSettings.self)
        let store = LayeredStore(
            [commandLine, environment, file], writingTo: file, declaredBy: CountedLayoutSettings.self)
        let settings = CountedLayoutSettings(store: store)
        let start = CountedLayout.decodes.value

        #expect(settings.layout == CountedLayout(indent: 4, wrapColumn: 60))
        #expect(settings.layout == CountedLayout(indent: 4, wrapColumn: 60))
        #expect(CountedLayout.decodes.value == start + 1)

        try file.setValue(try CountedLayout(indent: 2, wrapColumn: 80).storedValue(), forKey: "layout")
        #expect(settings.layout == CountedLayout(indent: 4, wrapColumn: 80))
        #expect(settings.layout == CountedLayout(indent: 4, wrapColumn: 80))
        #expect(CountedLayout.decodes.value == start + 2)

        try file.setValue(nil, forKey: "layout")
        #expect(settings.layout == CountedLayout(indent: 4, wrapColumn: 72))
    }
}
