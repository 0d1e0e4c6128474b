import Foundation
import StoredSettings
import Testing

/// Values from the environment, the command line and hand-edited files arrive as text: each
/// type reads its unambiguous spellings and refuses everything else with `.typeMismatch`.
@Suite(.timeLimit(TestScale.hangGuard))
struct LenientTextTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let reads: @Sendable (StoredValue) throws -> Bool
        let type: String
        var testDescription: String { "\(type) from \(text.debugDescription)" }

        init<T: StoredValueConvertible & Equatable>(_ text: String, _ expected: T) {
            self.text = text
            self.type = "\(T.self)"
            self.reads = { try T(storedValue: $0) == expected }
        }
    }

    static let accepted: [Case] = [
        Case("true", true), Case("FALSE", false), Case("Yes", true), Case("no", false), Case("ON", true),
        Case("off", false), Case("1", true), Case("0", false), Case(" true ", true),
        Case("42", 42), Case("-42", -42), Case("+7", 7), Case(" 12 ", 12),
        Case("127", Int8.max), Case("-128", Int8.min), Case("255", UInt8.max),
        Case("9223372036854775807", Int64.max), Case("18446744073709551615", UInt64.max),
        Case("3.25", 3.25), Case("-1e-3", -0.001), Case("42", 42.0), Case("inf", Double.infinity),
        Case("0.1", Float(0.1)),
        Case("2026-11-30T02:15:18Z", Date(timeIntervalSince1970: 1_796_004_918)),
        Case("2026-11-30T02:15:18.5Z", Date(timeIntervalSince1970: 1_796_004_918.5)),
        Case("2026-11-30T03:15:18+01:00", Date(timeIntervalSince1970: 1_796_004_918)),
        Case("https://example.com/a?b=c#d", URL(string: "https://example.com/a?b=c#d")!),
        Case("e621e1f8-c36c-495a-93fc-0c247a3e6e5f", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
        Case("-12.50", Decimal(string: "-12.5")!), Case("1e3", Decimal(1000)),
        Case("AQID", Data([1, 2, 3])),
        Case("[1, 2, 3]", [1, 2, 3]), Case("{\"a\": true}", ["a": true]),
    ]

    static let refused: [Case] = [
        Case("maybe", true), Case("2", true), Case("", true),
        Case("4.0", 4), Case("12abc", 12), Case("0x10", 16), Case("", 0),
        Case("128", Int8.max), Case("-129", Int8.min), Case("256", UInt8.max), Case("-1", UInt8.min),
        Case("9223372036854775808", Int64.max), Case("18446744073709551616", UInt64.max),
        Case("1e39", Float.greatestFiniteMagnitude), Case("three", 3.0), Case("1,5", 1.5),
        Case("yesterday", Date()), Case("2026-11-30", Date()), Case("", URL(string: "https://x")!),
        Case("e621e1f8", UUID()), Case("12abc", Decimal(12)), Case("1,5", Decimal(1)), Case("nan", Decimal(0)),
        Case("", Decimal(0)), Case(".", Decimal(0)), Case("1e", Decimal(1)),
        Case("not base64!", Data()),
    ]

    @Test(arguments: accepted)
    func readsText(_ testCase: Case) throws {
        #expect(try testCase.reads(.string(testCase.text)))
    }

    @Test(arguments: refused)
    func refusesText(_ testCase: Case) {
        #expect {
            _ = try testCase.reads(.string(testCase.text))
        } throws: { error in
            (error as? StorageError)?.code == .typeMismatch
        }
    }

    @Test func outOfRangeNumberIsATypeMismatchNamingTheRange() {
        #expect {
            _ = try UInt8(storedValue: .int(300))
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .typeMismatch
                && error?.description == "Settings: expected UInt8, found int: out of the range of UInt8 (0...255)."
        }
    }

    @Test func stringIsNeverReadFromANumber() {
        #expect(throws: StorageError.self) { _ = try String(storedValue: .int(1)) }
    }

    @Test func lenientTextAppliesInsideCodable() throws {
        struct Options: Codable, Equatable, StoredValueConvertible {
            var verbose: Bool
            var retries: Int
            var ratio: Double
            var since: Date
            var level: UInt8?
        }
        let tree: StoredValue = .dictionary([
            "verbose": .string("yes"), "retries": .string("3"), "ratio": .string("0.5"),
            "since": .string("2001-01-01T00:00:01.25Z"), "level": .string("7"),
        ])
        let options = try Options(storedValue: tree)
        #expect(
            options
                == Options(
                    verbose: true, retries: 3, ratio: 0.5, since: Date(timeIntervalSinceReferenceDate: 1.25), level: 7))
    }

    @Test func codableReadsJSONTextFromTheEnvironment() throws {
        struct Window: Codable, Equatable, StoredValueConvertible {
            var width: Int
            var tags: [String]
        }
        let window = try Window(storedValue: .string(#"{"width": 800, "tags": ["a"]}"#))
        #expect(window == Window(width: 800, tags: ["a"]))
    }
}
