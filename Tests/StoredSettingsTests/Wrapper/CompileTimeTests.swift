import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

// Spells every `@Stored` form of the public contract. If an overload-resolution change breaks
// one of them, this file stops compiling. The single test below only instantiates the group.

private enum CompileKey: String, StorageKey {
    case flag, int8, int16, int32, int64, int, uint8, uint16, uint32, uint64, uint
    case float, double, string, data, date, url, uuid, decimal
    case optionalInt, optionalString, optionalDate, optionalTheme
    case array, nestedArray, set, dictionary, theme, level, explicitStore
}

private enum CompileTheme: String, StoredValueConvertible { case system, light, dark }
private enum CompileLevel: Int, StoredValueConvertible { case low = 1, high = 2 }

private struct EverySpelling: SettingsGroup {
    @Stored(CompileKey.flag, default: false) var flag: Bool
    @Stored(CompileKey.int8, default: 0) var int8: Int8
    @Stored(CompileKey.int16, default: 0) var int16: Int16
    @Stored(CompileKey.int32, default: 0) var int32: Int32
    @Stored(CompileKey.int64, default: 0) var int64: Int64
    @Stored(CompileKey.int, default: 0) var int: Int
    @Stored(CompileKey.uint8, default: 0) var uint8: UInt8
    @Stored(CompileKey.uint16, default: 0) var uint16: UInt16
    @Stored(CompileKey.uint32, default: 0) var uint32: UInt32
    @Stored(CompileKey.uint64, default: 0) var uint64: UInt64
    @Stored(CompileKey.uint, default: 0) var uint: UInt
    @Stored(CompileKey.float, default: 0) var float: Float
    @Stored(CompileKey.double, default: 0.5) var double: Double
    @Stored(CompileKey.string, default: "") var string: String
    @Stored(CompileKey.data, default: Data()) var data: Data
    @Stored(CompileKey.date, default: .distantPast) var date: Date
    @Stored(CompileKey.url, default: URL(fileURLWithPath: "/")) var url: URL
    @Stored(CompileKey.uuid, default: UUID()) var uuid: UUID
    @Stored(CompileKey.decimal, default: 0) var decimal: Decimal

    @Stored(CompileKey.optionalInt) var optionalInt: Int?
    @Stored(CompileKey.optionalString) var optionalString: String?
    @Stored(CompileKey.optionalDate) var optionalDate: Date?
    @Stored(CompileKey.optionalTheme) var optionalTheme: CompileTheme?

    @Stored(CompileKey.array, default: []) var array: [Int]
    @Stored(CompileKey.nestedArray, default: [[]]) var nestedArray: [[String]]
    @Stored(CompileKey.set, default: []) var set: Set<String>
    @Stored(CompileKey.dictionary, default: [:]) var dictionary: [String: [Int]]
    @Stored(CompileKey.theme, default: .system) var theme: CompileTheme
    @Stored(CompileKey.level, default: .low) var level: CompileLevel

    // A plain String is a key too, and `store:` overrides the group's store.
    @Stored("plain.string key ✓", default: 1) var plainKey: Int
    @Stored(CompileKey.explicitStore, default: true, store: InMemoryStore()) var explicitStore: Bool
    @Stored(CompileKey.optionalInt, store: InMemoryStore()) var explicitOptional: Int?
}

@Suite(.timeLimit(TestScale.hangGuard))
struct CompileTimeTests {
    @Test func everyContractSpellingCompilesAndReadsItsDefault() {
        let settings = EverySpelling(store: InMemoryStore())
        #expect(settings.flag == false)
        #expect(settings.double == 0.5)
        #expect(settings.optionalTheme == nil)
        #expect(settings.theme == .system)
        #expect(settings.level == .low)
        #expect(settings.plainKey == 1)
        #expect(settings.$plainKey.key == "plain.string key ✓")
        #expect(settings.explicitStore)
        #expect(settings.$explicitStore.store !== settings.$flag.store)
        // The projected value exposes the wrapper's contract members.
        let projected: Stored<Bool> = settings.$flag
        #expect(projected.defaultValue == false)
        #expect(projected.hasStoredValue == false)
    }
}
