import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

// Spells every `@Stored` form of the public contract. If an overload-resolution change breaks
// one of them, this file stops compiling. The tests below only instantiate the groups.
//
// Spellings that must not compile, each with the message the package gives (checked against
// the compiler by `.ci/compile-errors`, which type-checks each one against the built module):
//
// A non-optional setting without `default:`, with or without `help:`, `secret:`, `store:`:
//     @Stored(key) var a: Int
//     @Stored(key, help: "h", secret: true, store: s) var a: String
//   "A non-optional setting needs a default, returned while nothing is stored: write
//    @Stored(key, default: value), or make the property optional."
// `default:` on an optional setting, with or without `help:`, `secret:`, `store:`:
//     @Stored(key, default: nil) var a: String?
//     @Stored(key, default: nil, secret: true) var a: String?
//     @Stored(key, default: 3, help: "h", store: s) var a: Int?
//   "An optional setting has no default: it reads nil until a value is stored. Remove
//    'default:', or make the property non-optional to give it a default."
// Common types with no stored form, optional or not, with any of the arguments above:
//     @Stored(key, default: 0) var a: Float80      (x86 only, where Float80 exists)
//   "Float80 is not a supported setting type; store a Double"
//     @Stored(key, default: "c") var a: Character
//   "Character is not a supported setting type; store a String"
//     @Stored(key) var a: Substring?
//   "Substring is not a supported setting type; store a String"
//     @Stored(key, default: 0) var a: Int128
//   "Int128 is not a supported setting type; store an Int64, or a String of its digits"
//     @Stored(key) var a: UInt128?
//   "UInt128 is not a supported setting type; store a UInt64, or a String of its digits"
//     @Stored(key, default: [:]) var a: [Int: String]
//   "A dictionary setting needs String keys; use [String: Value], with each key converted to
//    a String"

private enum CompileKey: String, StorageKey {
    case flag, int8, int16, int32, int64, int, uint8, uint16, uint32, uint64, uint
    case float, double, string, data, date, url, uuid, decimal
    case optionalInt, optionalString, optionalDate, optionalTheme
    case array, nestedArray, set, dictionary, theme, level, explicitStore
    case helped, secret, helpedSecret, helpedSecretStore, optionalHelped, optionalSecret
    case optionalHelpedSecret, optionalHelpedSecretStore, optionalDictionary
}

private enum CompileTheme: String, StoredValueConvertible { case system, light, dark }
private enum CompileLevel: Int, StoredValueConvertible {
    case low = 1
    case high = 2
}

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
    @Stored(CompileKey.optionalDictionary) var optionalDictionary: [String: Int]?
}

// Every combination of `help:` and `secret:` (each defaulted), with and without `store:`.
private struct EveryDescribedSpelling: SettingsGroup {
    @Stored(CompileKey.helped, default: 1, help: "Helped.") var helped: Int
    @Stored(CompileKey.secret, default: "", secret: true) var secret: String
    @Stored(CompileKey.helpedSecret, default: "", help: "A token.", secret: true) var helpedSecret: String
    @Stored(CompileKey.helpedSecretStore, default: 2, help: "Own store.", secret: false, store: InMemoryStore())
    var helpedSecretStore: Int
    @Stored(CompileKey.optionalHelped, help: "Maybe.") var optionalHelped: Date?
    @Stored(CompileKey.optionalSecret, secret: true) var optionalSecret: String?
    @Stored(CompileKey.optionalHelpedSecret, help: "A password.", secret: true) var optionalHelpedSecret: String?
    @Stored(CompileKey.optionalHelpedSecretStore, help: "Own store.", secret: true, store: InMemoryStore())
    var optionalHelpedSecretStore: Int?
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

    @Test func helpAndSecretArgumentsAreKeptWithTheirDefaultsElsewhere() {
        let settings = EveryDescribedSpelling(store: InMemoryStore())
        #expect(settings.$helped.help == "Helped." && !settings.$helped.isSecret)
        #expect(settings.$secret.help == nil && settings.$secret.isSecret)
        #expect(settings.$helpedSecret.help == "A token." && settings.$helpedSecret.isSecret)
        #expect(settings.helpedSecretStore == 2 && !settings.$helpedSecretStore.isSecret)
        #expect(settings.$optionalHelped.help == "Maybe." && !settings.$optionalHelped.isSecret)
        #expect(settings.$optionalSecret.help == nil && settings.$optionalSecret.isSecret)
        #expect(settings.$optionalHelpedSecret.isSecret && settings.optionalHelpedSecret == nil)
        #expect(settings.$optionalHelpedSecretStore.store !== settings.$helped.store)
        let plain = EverySpelling(store: InMemoryStore())
        #expect(plain.$flag.help == nil && !plain.$flag.isSecret)
        #expect(plain.$optionalInt.help == nil && !plain.$optionalInt.isSecret)
    }
}
