import StoredSettings
import Testing

/// Integer settings read from text: exactly what trimming, then the standard library's parser,
/// gives, for every width and every text.
@Suite(.timeLimit(TestScale.hangGuard))
struct IntegerTextTests {
    static let texts: [String] = [
        "0", "-0", "+0", "00", "007", "42", "+42", "-42", " 42", "42 ", "\t42\n", "4 2", "", "+", "-", "+-1", "--1",
        "1_000", "0x10", "1e3", "4.0", "٤٢", "４２", "42\u{0}", "127", "128", "-128", "-129", "255", "256", "-1",
        "32767", "32768", "65535", "65536", "2147483647", "2147483648", "4294967295", "4294967296",
        "999999999999999999", "-999999999999999999", "+999999999999999999", "1000000000000000000",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "0000000000000000042", "000000000000000000",
    ]

    /// What the general path reads from `text`: the value, or `nil` when it throws.
    static func generalPath<T: FixedWidthInteger>(_ text: String, as _: T.Type) -> T? {
        T(text.trimmingWhitespace, radix: 10)
    }

    static func check<T: FixedWidthInteger & StoredValueConvertible>(
        _ type: T.Type, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var texts = Self.texts
        texts += (-300...300).flatMap { ["\($0)", "+\($0)", "0\($0)"] }
        for text in texts {
            let read = try? T(storedValue: .string(text))
            #expect(read == generalPath(text, as: T.self), "\(T.self) from \"\(text)\"", sourceLocation: sourceLocation)
        }
    }

    @Test func everyWidthReadsWhatTheGeneralPathReads() {
        Self.check(Int.self)
        Self.check(Int8.self)
        Self.check(Int16.self)
        Self.check(Int32.self)
        Self.check(Int64.self)
        Self.check(UInt.self)
        Self.check(UInt8.self)
        Self.check(UInt16.self)
        Self.check(UInt32.self)
        Self.check(UInt64.self)
    }

    @Test func outOfRangeTextStillNamesTheRange() throws {
        let error = try #require(throws: StorageError.self) { try Int8(storedValue: .string("128")) }
        #expect(error.code == .typeMismatch)
        #expect(error.message == "out of the range of Int8 (-128...127)")
        let negative = try #require(throws: StorageError.self) { try UInt(storedValue: .string("-1")) }
        #expect(negative.code == .typeMismatch)
        #expect(negative.message == "out of the range of UInt (0...18446744073709551615)")
    }
}
