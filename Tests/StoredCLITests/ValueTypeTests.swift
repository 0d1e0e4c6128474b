import Foundation
import StoredCLI
import StoredSettings
import Testing

/// A TYPE flag, a VALUE text and the stored value it gives.
struct ValueCase: CustomTestStringConvertible, Sendable {
    var type: ValueType
    var text: String
    var value: StoredValue

    init(_ type: ValueType, _ text: String, _ value: StoredValue) {
        self.type = type
        self.text = text
        self.value = value
    }

    var testDescription: String { "\(type.flag) \(text)" }
}

@Suite(.timeLimit(.hangGuard))
struct ValueTypeTests {
    static let validCases: [ValueCase] = [
        ValueCase(.bool, "true", .bool(true)),
        ValueCase(.bool, "YES", .bool(true)),
        ValueCase(.bool, "1", .bool(true)),
        ValueCase(.bool, "False", .bool(false)),
        ValueCase(.bool, "no", .bool(false)),
        ValueCase(.bool, "0", .bool(false)),
        ValueCase(.int, "42", .int(42)),
        ValueCase(.int, "-9223372036854775808", .int(.min)),
        ValueCase(.int, "18446744073709551615", .string("18446744073709551615")),
        ValueCase(.float, "0.5", .double(0.5)),
        ValueCase(.float, "-1e-3", .double(-0.001)),
        ValueCase(.float, "3", .double(3)),
        ValueCase(.string, "", .string("")),
        ValueCase(.string, "Grüße 👋", .string("Grüße 👋")),
        ValueCase(.date, "2026-03-01T09:30:00Z", .date(Date(timeIntervalSince1970: 1_772_357_400))),
        ValueCase(.date, "2026-03-01T10:30:00.25+01:00", .date(Date(timeIntervalSince1970: 1_772_357_400.25))),
        ValueCase(.data, "48656c6c6f", .data(Data("Hello".utf8))),
        ValueCase(.data, "0x48656C6C6F", .data(Data("Hello".utf8))),
        ValueCase(.data, "", .data(Data())),
        ValueCase(.data, "base64:SGVsbG8=", .data(Data("Hello".utf8))),
        ValueCase(.json, "true", .bool(true)),
        ValueCase(.json, " 42 ", .int(42)),
        ValueCase(.json, "\"text\"", .string("text")),
        ValueCase(.json, "[1, 2.5, \"x\"]", .array([.int(1), .double(2.5), .string("x")])),
        ValueCase(
            .json, "{\"name\": \"Ada\", \"tags\": []}", .dictionary(["name": .string("Ada"), "tags": .array([])])),
    ]

    @Test(arguments: validCases)
    func readsValueText(_ testCase: ValueCase) throws {
        #expect(try testCase.type.storedValue(from: testCase.text) == testCase.value)
    }

    /// A VALUE that does not fit its TYPE, and the error's text.
    struct BadCase: CustomTestStringConvertible, Sendable {
        var type: ValueType
        var text: String
        var code: StorageError.Code
        var description: String
        var testDescription: String { "\(type.flag) \(text)" }
    }

    static let badCases: [BadCase] = [
        BadCase(
            type: .bool, text: "maybe", code: .typeMismatch,
            description:
                "Settings: expected Bool, found string: \"maybe\" is not true, false, yes, no, on, off, 1 or 0."),
        BadCase(
            type: .int, text: "abc", code: .typeMismatch,
            description: "Settings: expected Int, found string: \"abc\" is not a whole number."),
        BadCase(
            type: .int, text: "1.5", code: .typeMismatch,
            description: "Settings: expected Int, found string: \"1.5\" is not a whole number."),
        BadCase(
            type: .int, text: "99999999999999999999", code: .typeMismatch,
            description:
                "Settings: expected Int, found string: \"99999999999999999999\" is outside -9223372036854775808...18446744073709551615."
        ),
        BadCase(
            type: .float, text: "fast", code: .typeMismatch,
            description: "Settings: expected Double, found string: \"fast\" is not a number."),
        BadCase(
            type: .date, text: "yesterday", code: .typeMismatch,
            description:
                "Settings: expected Date, found string: \"yesterday\" is not an ISO 8601 date and time such as 2026-03-01T09:30:00Z."
        ),
        BadCase(
            type: .data, text: "abc", code: .typeMismatch,
            description:
                "Settings: expected Data, found string: \"abc\" is not an even number of hex digits (write base64:… for Base64)."
        ),
        BadCase(
            type: .data, text: "zz", code: .typeMismatch,
            description:
                "Settings: expected Data, found string: \"zz\" is not an even number of hex digits (write base64:… for Base64)."
        ),
        BadCase(
            type: .data, text: "base64:***", code: .typeMismatch,
            description: "Settings: expected Data, found string: \"base64:***\" is not valid Base64 after 'base64:'."),
    ]

    @Test(arguments: badCases)
    func rejectsTextThatDoesNotFit(_ testCase: BadCase) {
        let error = #expect(throws: StorageError.self) { try testCase.type.storedValue(from: testCase.text) }
        #expect(error?.code == testCase.code)
        #expect(error?.description == testCase.description)
    }

    @Test(arguments: ["{", "null", "[1, 2", "{\"a\": null}", "tru"])
    func rejectsJSONThatIsNotAStoredValue(_ text: String) {
        let error = #expect(throws: StorageError.self) { try ValueType.json.storedValue(from: text) }
        #expect(error?.code == .dataCorrupted)
        #expect(error?.expectedType == "JSON")
    }

    @Test func knowsEveryFlag() {
        #expect(ValueType.allCases.map(\.flag) == ["-bool", "-int", "-float", "-string", "-date", "-data", "-json"])
        #expect(ValueType(flag: "-int") == .int)
        #expect(ValueType(flag: "int") == nil)
        #expect(ValueType(flag: "-integer") == nil)
    }
}
