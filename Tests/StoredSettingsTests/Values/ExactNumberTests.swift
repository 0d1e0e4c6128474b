import Foundation
import StoredSettings
import Testing

/// JSON numbers are read exactly or refused, never clamped or rounded into a different whole
/// number, and a write leaves every number it does not change as the file spelled it.
@Suite(.timeLimit(TestScale.hangGuard))
struct ExactNumberTests {
    /// A number in a JSON file and the integer type it is read as.
    struct OutOfRange: Sendable, CustomTestStringConvertible {
        let json: String
        let read: @Sendable (StoredValue) throws -> Void
        let typeName: String
        var testDescription: String { "\(json) as \(typeName)" }

        static func int(_ json: String) -> OutOfRange {
            OutOfRange(json: json, read: { _ = try Int(storedValue: $0) }, typeName: "Int")
        }
        static func uint64(_ json: String) -> OutOfRange {
            OutOfRange(json: json, read: { _ = try UInt64(storedValue: $0) }, typeName: "UInt64")
        }
    }

    static let outOfRange: [OutOfRange] = [
        .int("-9223372036854775809"), .int("-9223372036854776000"), .int("-9223372036854775808.5"),
        .int("9223372036854775808"), .int("9223372036854775807.5"), .int("123456789012345678901234567890"),
        .int("-1e19"), .uint64("18446744073709551616"), .uint64("18446744073709551615.5"), .uint64("-1"),
    ]

    @Test(arguments: outOfRange)
    func aNumberBeyondTheTypesRangeIsATypeMismatchSayingSo(_ testCase: OutOfRange) throws {
        let value = try StoredValueJSON.parse(Data("{\"n\": \(testCase.json)}".utf8))
        guard case .dictionary(let items) = value, let number = items["n"] else {
            Issue.record("no value")
            return
        }
        let error = try #require(throws: StorageError.self) { try testCase.read(number) }
        #expect(error.code == .typeMismatch)
        #expect(error.description.contains("out of the range of \(testCase.typeName)"), "\(error)")
        #expect(!error.description.contains("not a whole number"), "\(error)")
    }

    @Test func aWholeNumberWithMoreDigitsThanADoubleIsNotReadAsTheRoundedInteger() throws {
        let value = try StoredValueJSON.parse(Data(#"{"n": 9223372036854775807.0}"#.utf8))
        guard case .dictionary(let items) = value, let number = items["n"] else {
            Issue.record("no value")
            return
        }
        // 9223372036854775807.0 rounds to the Double 2^63; reading it as that integer would
        // be a number the file does not hold.
        #expect((try? UInt64(storedValue: number)) != 9_223_372_036_854_775_808)
        #expect(try Double(storedValue: number) == 9_223_372_036_854_775_808.0)
    }

    @Test func aFractionIsATypeMismatchSayingItIsNotWhole() throws {
        let error = try #require(throws: StorageError.self) { try Int(storedValue: .double(1.5)) }
        #expect(error.description == "Settings: expected Int, found double: not a whole number.")
    }

    @Test func aNumberBeyondASmallTypeNamesTheRange() throws {
        let error = try #require(throws: StorageError.self) { try UInt8(storedValue: .int(300)) }
        #expect(error.description == "Settings: expected UInt8, found int: out of the range of UInt8 (0...255).")
    }

    @Test func wholeNumbersInRangeStillRead() throws {
        let value = try StoredValueJSON.parse(Data(#"[-9223372036854775808, 9007199254740993, 4.0, 1e3, -0.0]"#.utf8))
        #expect(value == .array([.int(.min), .int(9_007_199_254_740_993), .double(4), .double(1000), .double(0)]))
        #expect(try Int(storedValue: .double(4)) == 4)
    }

    @Test func writingOneKeyKeepsUntouchedNumbersAsTheFileSpelledThem() throws {
        let folder = try ScratchFolder()
        let url = folder.file("s.json")
        let original = """
            {
              "bigId": 123456789012345678901234567890,
              "maxUnsigned": 18446744073709551615,
              "precise": 0.1000000000000000000001,
              "profile": {"id": 18446744073709551615, "ratio": 1e2},
              "theme": "light"
            }

            """
        try Data(original.utf8).write(to: url)
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(.string("dark"), forKey: "theme")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text.contains(#""bigId": 123456789012345678901234567890,"#), "\(text)")
        #expect(text.contains(#""maxUnsigned": 18446744073709551615,"#), "\(text)")
        #expect(text.contains(#""precise": 0.1000000000000000000001,"#), "\(text)")
        #expect(text.contains(#""profile": {"id": 18446744073709551615, "ratio": 1e2},"#), "\(text)")
        #expect(text.contains(#""theme": "dark""#), "\(text)")
        let reopened = try FileStore(url: url, options: quietOptions)
        #expect(try reopened.value(forKey: "maxUnsigned").map { try UInt64(storedValue: $0) } == .max)
        #expect(reopened.value(forKey: "theme") == .string("dark"))
    }

    /// The store's second write copies unchanged members from the text of its first; a file
    /// another program rewrote in between, spelling a value its own way, is kept as it spells it.
    @Test func aFileEditedBetweenTwoWritesKeepsTheEditorsSpelling() throws {
        let folder = try ScratchFolder()
        let url = folder.file("s.json")
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(.double(100), forKey: "ratio")
        try store.setValue(.int(1), forKey: "count")
        try Data(#"{"count": 1, "ratio": 1e2}"#.utf8).write(to: url)
        try store.reload()
        try store.setValue(.int(2), forKey: "count")
        #expect(try String(contentsOf: url, encoding: .utf8) == "{\n  \"count\": 2,\n  \"ratio\": 1e2\n}\n")
    }

    @Test func aChangedValueIsWrittenFromTheTree() throws {
        let folder = try ScratchFolder()
        let url = folder.file("s.json")
        try Data(#"{"ratio": 1e2, "other": 1e2}"#.utf8).write(to: url)
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(.double(3), forKey: "ratio")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(text == "{\n  \"other\": 1e2,\n  \"ratio\": 3.0\n}\n")
    }
}
