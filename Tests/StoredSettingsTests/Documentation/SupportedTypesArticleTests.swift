import Foundation
import StoredSettings
import Testing

// The code and the "JSON look" column of the "Supported types" article, so the compiler and
// the tests check them.

private enum Theme: String, StoredValueConvertible { case system, light, dark }

private struct Window: Codable, StoredValueConvertible {
    var width = 800
    var height = 600
}

private enum Priority: Int, StoredValueConvertible {
    case low = 1
    case high = 10
}
private enum Shape: Codable, StoredValueConvertible { case circle(radius: Double) }
private struct Flags: Codable, StoredValueConvertible { var flags: [Int: Bool] }

@Suite(.timeLimit(TestScale.hangGuard))
struct SupportedTypesArticleTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let json: String
        let value: @Sendable () throws -> StoredValue
        var testDescription: String { json }
        init(_ json: String, _ value: @escaping @Sendable () throws -> StoredValue) {
            self.json = json
            self.value = value
        }
    }

    static let rows: [Row] = [
        Row("true") { true.storedValue() },
        Row("-42") { (-42).storedValue() },
        Row("42") { UInt8(42).storedValue() },
        Row(#""18446744073709551615""#) { UInt64.max.storedValue() },
        Row("0.1") { 0.1.storedValue() },
        Row("-0.0") { (-0.0).storedValue() },
        Row("5e-324") { Double.leastNonzeroMagnitude.storedValue() },
        Row("0.10000000149011612") { Float(0.1).storedValue() },
        Row(#""héllo 👋""#) { "héllo 👋".storedValue() },
        Row(#""AQID""#) { Data([1, 2, 3]).storedValue() },
        Row(#""2001-01-01T00:00:01.5Z""#) { Date(timeIntervalSinceReferenceDate: 1.5).storedValue() },
        Row(#""https://example.com/a?b=c#d""#) { URL(string: "https://example.com/a?b=c#d")!.storedValue() },
        Row(#""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#) {
            UUID(uuidString: "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")!.storedValue()
        },
        Row(#""12.345""#) { try Decimal(string: "12.345")!.storedValue() },
        Row("[1,2,3]") { try [1, 2, 3].storedValue() },
        Row(#"["a","b"]"#) { try Set(["b", "a"]).storedValue() },
        Row(#"{"a":[1,2]}"#) { try ["a": [1, 2]].storedValue() },
        Row(#""dark""#) { try Theme.dark.storedValue() },
        Row("10") { try Priority.high.storedValue() },
        Row(#"{"height":600,"width":800}"#) { try Window().storedValue() },
        Row(#"{"circle":{"radius":1.5}}"#) { try Shape.circle(radius: 1.5).storedValue() },
        Row(#"{"flags":{"1":true}}"#) { try Flags(flags: [1: true]).storedValue() },
    ]

    @Test(arguments: rows)
    func jsonLooksAsDocumented(_ row: Row) throws {
        #expect(try StoredValueJSON.string(from: row.value(), pretty: false) == row.json)
    }
}
