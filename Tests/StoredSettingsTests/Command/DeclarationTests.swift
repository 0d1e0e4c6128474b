import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

@Suite(.timeLimit(TestScale.hangGuard))
struct DeclarationTests {
    struct Margins: Codable, Sendable, StoredValueConvertible {
        var top: Int
        var compact: Bool
    }

    struct Page: Codable, Sendable, StoredValueConvertible {
        var indent: Int
        var margins: Margins
        var names: [String]
    }

    struct Declared: SettingsGroup {
        @Stored("flag", default: false) var flag: Bool
        @Stored("maybeFlag") var maybeFlag: Bool?
        @Stored("hosts", default: []) var hosts: [String]
        @Stored("ports") var ports: Set<Int>?
        @Stored("limits", default: ["a": 1]) var limits: [String: Int]
        @Stored("page", default: Page(indent: 2, margins: Margins(top: 1, compact: true), names: []))
        var page: Page
        @Stored("token", secret: true) var token: String?
        @Stored("count", default: 3) var count: Int
    }

    @Test func eachSettingIsDeclaredWithItsShapeDefaultAndSecrecy() throws {
        let declarations = Declared.declarations()
        let byKey = Dictionary(uniqueKeysWithValues: declarations.map { ($0.key, $0) })
        #expect(declarations.map(\.key) == ["flag", "maybeFlag", "hosts", "ports", "limits", "page", "token", "count"])
        #expect(byKey["flag"]?.shape == .boolean)
        #expect(byKey["maybeFlag"]?.shape == .boolean)
        #expect(byKey["hosts"]?.shape == .list)
        #expect(byKey["ports"]?.shape == .list)
        #expect(byKey["limits"]?.shape == .other)
        #expect(
            byKey["page"]?.shape
                == .structure(fields: [
                    "indent": .other, "names": .list,
                    "margins": .structure(fields: ["top": .other, "compact": .boolean]),
                ]))
        #expect(byKey["token"]?.isSecret == true)
        #expect(byKey["token"]?.defaultValue == nil)
        #expect(byKey["count"]?.defaultValue == .int(3))
        #expect(byKey["count"]?.isSecret == false)
    }

    /// Counts the instances of ``Counted`` created (its default is computed per instance).
    static let countedInstances = Lock<Int>(0)

    /// The next instance's number.
    static func nextInstance() -> Int {
        countedInstances.withLock { count in
            count += 1
            return count
        }
    }

    struct Counted: SettingsGroup {
        @Stored("count", default: DeclarationTests.nextInstance()) var count: Int
    }

    @Test func aGroupsSettingsAreDerivedOncePerProcess() {
        let first = Counted.declarations()
        let instances = Self.countedInstances.value
        let second = Counted.declarations()
        var sink = ""
        _ = try? CommandLineSettings<Counted>(
            toolName: "counted", arguments: [], environment: [:], file: InMemoryStore(), messages: &sink)
        #expect(second == first)
        // Only the instance CommandLineSettings reads through was created after the first derivation.
        #expect(Self.countedInstances.value == instances + 1)
    }

    @Test func closestMatchSuggestsOneLikelySpelling() {
        let keys = ["pageSize", "showDates", "format", "layout"]
        #expect(closestMatch(to: "pagesise", among: keys) == "pageSize")
        #expect(closestMatch(to: "page_size", among: keys) == "pageSize")
        #expect(closestMatch(to: "fromat", among: keys) == "format")
        #expect(closestMatch(to: "colour", among: keys) == nil)
        #expect(closestMatch(to: "ab", among: ["ac", "ad"]) == nil)
    }
}
