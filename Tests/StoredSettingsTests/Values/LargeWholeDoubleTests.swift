import Foundation
import StoredSettings
import Testing

/// A `Double` spelled with a fraction or an exponent, in no more digits than a `Double` holds,
/// reads back as that `Double`, however large and whole: a number in the file stays a number.
@Suite(.timeLimit(TestScale.hangGuard))
struct LargeWholeDoubleTests {
    /// Whole doubles from 2^53 to 2^64, both signs, where the shortest text is not the exact
    /// value (`1.2173636321265912e+18`); the mantissas are spread by a fixed multiplier.
    static let wholeDoubles: [Double] = (53..<64).flatMap { exponent in
        (0..<40).flatMap { step -> [Double] in
            let mantissa = (UInt64(step) &* 0x9E37_79B9_7F4A_7C15) >> 12
            let value = Double(bitPattern: UInt64(1023 + exponent) << 52 | mantissa)
            return [value, -value]
        }
    }

    private func parsedNumber(_ text: String) throws -> StoredValue? {
        guard case .array(let items) = try StoredValueJSON.parse(Data("[\(text)]".utf8)) else { return nil }
        return items.first
    }

    @Test func everyWholeDoubleTheWriterSpellsReadsBackAsThatDouble() throws {
        for value in Self.wholeDoubles {
            let written = try StoredValueJSON.data(from: .array([.double(value)]))
            #expect(try StoredValueJSON.parse(written) == .array([.double(value)]), "\(value)")
        }
    }

    /// `%.17g` writes a number below 10^17 as its integer digits, exactly: that is an `int`.
    @Test func seventeenDigitAndLowercaseExponentSpellingsReadAsTheDouble() throws {
        for value in Self.wholeDoubles {
            let spellings = [
                String(format: "%.17g", value), String(format: "%.16e", value),
                "\(value)".replacingOccurrences(of: "e+", with: "e"),
            ]
            for text in spellings {
                let expected: StoredValue =
                    text.contains { $0 == "." || $0 == "e" } ? .double(value) : .int(Int64(value))
                #expect(try parsedNumber(text) == expected, "\(text)")
            }
        }
    }

    @Test func theIssuesListReadsAsTwoNumbers() throws {
        let value = try StoredValueJSON.parse(Data("[1.2173636321265912e18, 1.5]".utf8))
        #expect(value == .array([.double(1.2173636321265912e18), .double(1.5)]))
    }

    @Test func aFileStoreReadsTheDoubleAndAnotherWriteKeepsItANumber() throws {
        let folder = try ScratchFolder()
        let url = folder.file("d.json")
        try Data(#"{"d": 1.2173636321265912e+18, "list": [-9.223372036854776e+18, 4.5e18]}"#.utf8).write(to: url)
        let store = try FileStore(url: url, options: quietOptions)
        #expect(store.value(forKey: "d") == .double(1.2173636321265912e18))
        #expect(store.value(forKey: "list") == .array([.double(-9.223372036854776e18), .double(4.5e18)]))
        try store.setValue(.array([.double(1.2173636321265912e18)]), forKey: "copy")
        let reopened = try FileStore(url: url, options: quietOptions)
        #expect(reopened.value(forKey: "copy") == .array([.double(1.2173636321265912e18)]))
        #expect(try Double(storedValue: #require(reopened.value(forKey: "d"))) == 1.2173636321265912e18)
    }

    /// Digits a `Double` cannot hold still keep the integer readings exact.
    @Test func moreDigitsThanADoubleHoldsStayText() throws {
        for text in ["9223372036854775807.0", "-9223372036854775808.5", "1.21736363212659123e18"] {
            #expect(try parsedNumber(text) == .string(text), "\(text)")
        }
    }
}
