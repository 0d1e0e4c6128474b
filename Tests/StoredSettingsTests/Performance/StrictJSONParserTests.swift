import Foundation
import StoredSettings
import Testing

/// The strict JSON fast path of `StoredValueJSON.parse` must yield exactly what the
/// `JSONSerialization` path yields, or step aside (`nil`) so that path decides.
struct StrictJSONParserTests {
    /// What the `JSONSerialization` path makes of `text`, or `nil` when it throws.
    private func serializationResult(_ text: String) -> StoredValue? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) else { return nil }
        return try? StoredValueJSON.storedValue(fromJSONObject: object)
    }

    @Test(arguments: [
        "true", "false", "0", "-0", "7", " 7 ", "-12", "1.0", "-0.0", "0.1", "2.50", "1e2", "1E2", "-1e2",
        "1.5e3", "1e-400", "9223372036854775807", "9223372036854775808",
        "18446744073709551615", "18446744073709551616", "-9223372036854775809",
        "100000000000000000000000", "123456789012345678901234567890.0", "5e-324", "1.7976931348623157e308",
        "\"\"", "\"plain\"", "\"é 😀 日本\"", "\"\\u00e9\\ud83d\\ude00\"", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"",
        "\"\\u0000\"", "\"a\\u001fb\"", "[]", "{}", "[1,2,[3,{\"a\":[]}]]", "{\"a\":1,\"a\":2}",
        "{ \"k\" : { \"n\" : [ true , 1.25 , \"x\" ] } }", "\u{FEFF}{\"bom\":true}", "{\"dots.and/slashes @\":1}",
    ])
    func acceptsStrictJSONExactlyAsJSONSerializationReadsIt(text: String) throws {
        let fast = try #require(StoredValueJSON.parseStrict(Data(text.utf8)))
        let expected = try #require(serializationResult(text))
        #expect(fast.isIdentical(to: expected), "\(fast) != \(expected)")
        #expect(try StoredValueJSON.parse(Data(text.utf8)).isIdentical(to: expected))
    }

    @Test func readsInt64MinimumAsTheIntegerItIs() throws {
        // JSONSerialization reads this one integer as a double; the writer writes it for
        // Int64.min, so the fast path keeps it exact.
        let parsed = try #require(StoredValueJSON.parseStrict(Data("[-9223372036854775808]".utf8)))
        #expect(parsed.isIdentical(to: .array([.int(.min)])))
    }

    @Test(arguments: [
        "", " ", "nul", "null", "[null]", "[1,]", "{\"a\":1,}", "01", "-", "1.", ".5", "1e", "1e+", "+1", "1E400",
        "-1e400", "\"\u{01}\"", "\"\\x\"", "\"\\ud83d\"", "\"\\ude00\"", "\"\\ud83d\\u0041\"", "\"abc", "[1 2]",
        "{\"a\" 1}", "{1:2}", "[1]]", "tru", "falsey", "{\"a\":1} x", "NaN", "Infinity",
    ])
    func stepsAsideForAnythingElse(text: String) {
        #expect(StoredValueJSON.parseStrict(Data(text.utf8)) == nil)
    }

    @Test func refusesInvalidUTF8() {
        #expect(StoredValueJSON.parseStrict(Data([0x22, 0xC3, 0x28, 0x22])) == nil)
        #expect(StoredValueJSON.parseStrict(Data([0x22, 0xFF, 0x22])) == nil)
        #expect(StoredValueJSON.parseStrict(Data([0x22, 0xE2, 0x82, 0x22])) == nil)
    }

    @Test func leavesNestingBeyondTheLimitToTheDepthCheck() throws {
        let deep = String(repeating: "[", count: StoredValueJSON.maximumDepth + 1) + String(repeating: "]", count: StoredValueJSON.maximumDepth + 1)
        #expect(StoredValueJSON.parseStrict(Data(deep.utf8)) == nil)
        let error = #expect(throws: StorageError.self) { try StoredValueJSON.parse(Data(deep.utf8)) }
        #expect(error?.code == .nestingTooDeep)
        let limit = String(repeating: "[", count: StoredValueJSON.maximumDepth) + String(repeating: "]", count: StoredValueJSON.maximumDepth)
        #expect(StoredValueJSON.parseStrict(Data(limit.utf8)) != nil)
    }

    @Test func readsBackEveryTreeTheWriterWrites() throws {
        let tree: StoredValue = .dictionary([
            "bool": .bool(true), "int": .int(.min), "max": .int(.max), "double": .double(-0.0),
            "small": .double(.leastNonzeroMagnitude), "pi": .double(.pi), "text": .string("line\nbreak \"quoted\" \u{7F} é 😀"),
            "list": .array([.int(1), .double(1), .string("1"), .array([]), .dictionary([:])]),
            "nested": .dictionary(["deeper": .dictionary(["deepest": .string("")])]),
            "unsigned": .string("18446744073709551615"),
        ])
        for pretty in [true, false] {
            let data = try StoredValueJSON.data(from: tree, pretty: pretty)
            let parsed = try #require(StoredValueJSON.parseStrict(data))
            #expect(parsed.isIdentical(to: tree))
        }
    }
}
