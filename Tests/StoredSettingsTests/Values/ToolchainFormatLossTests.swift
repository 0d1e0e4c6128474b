import Foundation
import StoredSettings
import Testing

/// Why the package keeps its own JSON reader and writer, XML property-list writer, key scanner
/// and date text: each test shows the toolchain's own path losing data on this platform, beside
/// the package's path keeping it. When a toolchain stops losing it, its test fails, and the
/// hand-written code can give way to the toolchain's. The losses are those of Foundation on
/// Linux, where they were measured; Apple's Foundation is a different implementation.
#if os(Linux)
@Suite(.timeLimit(TestScale.hangGuard))
struct ToolchainFormatLossTests {
    /// `JSONSerialization` keeps one of two canonically equivalent keys, silently; the reader
    /// refuses the file, naming both.
    @Test func jsonSerializationMergesKeysTheReaderRefuses() throws {
        let json = "{\"\u{00C5}\": 1, \"\u{212B}\": 2}"
        let merged = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(merged.count == 1)
        let error = try #require(throws: StorageError.self) { try StoredValueJSON.parse(Data(json.utf8)) }
        #expect(error.code == .dataCorrupted)
    }

    /// A large whole double as `JSONSerialization` writes it reads back as a whole decimal, not
    /// a double; the reader keeps it a double, so an Int setting never reads a number the file
    /// holds as a double.
    @Test func jsonSerializationReadsALargeWholeDoubleBackAsAnInteger() throws {
        let number = 1.2173636321265912e18
        let text = try JSONSerialization.data(withJSONObject: ["d": number])
        let back = try #require(JSONSerialization.jsonObject(with: text) as? [String: Any])
        #expect(back["d"] is NSDecimalNumber)
        #expect(try StoredValueJSON.parse(text) == .dictionary(["d": .double(number)]))
    }

    /// `PropertyListSerialization`'s XML writes -0.0 as 0.0 and a date to the whole second; the
    /// package's XML writer keeps both to the bit.
    @Test func propertyListSerializationDropsTheSignOfZeroAndFractionalSeconds() throws {
        let date = Date(timeIntervalSinceReferenceDate: 0.5)
        let foundation = try PropertyListSerialization.data(
            fromPropertyList: ["z": -0.0, "d": date] as [String: Any], format: .xml, options: 0)
        let back = try #require(PropertyListSerialization.propertyList(from: foundation, format: nil) as? [String: Any])
        #expect((back["z"] as? Double)?.sign == .plus)
        #expect((back["d"] as? Date) != date)

        let tree = StoredValue.dictionary(["z": .double(-0.0), "d": .date(date)])
        let ours = try PropertyListValue.xmlData(from: tree)
        let read = try PropertyListValue.parseFile(ours).value
        guard case .dictionary(let values) = read, case .double(let zero)? = values["z"] else {
            Issue.record("read back \(read)")
            return
        }
        #expect(zero.sign == .minus)
        // The date is exact ISO 8601 text in a string, which the value layer reads as the date.
        #expect(values["d"] == .string(try #require(DateText.string(from: date))))
        #expect(DateText.date(from: try #require(DateText.string(from: date))) == date)
    }

    /// `PropertyListSerialization` merges two canonically equivalent keys of an XML `<dict>`;
    /// the key scanner finds them in the bytes and the file is refused.
    @Test func propertyListSerializationMergesKeysTheScannerRefuses() throws {
        let xml = Data(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict>"
                + "<key>\u{00C5}</key><integer>1</integer><key>\u{212B}</key><integer>2</integer></dict></plist>").utf8)
        let merged = try #require(PropertyListSerialization.propertyList(from: xml, format: nil) as? [AnyHashable: Any])
        #expect(merged.count == 1)
        let error = try #require(throws: StorageError.self) { try PropertyListValue.parseFile(xml) }
        #expect(error.code == .dataCorrupted)
    }

    /// `ISO8601DateFormatter` keeps milliseconds at most; the date text gives back the same
    /// `Date` to the bit.
    @Test func iso8601DateFormatterLosesSubMillisecondDigits() throws {
        let date = Date(timeIntervalSinceReferenceDate: 0.123456789)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        #expect(formatter.date(from: formatter.string(from: date)) != date)
        #expect(DateText.date(from: try #require(DateText.string(from: date))) == date)
    }
}
#endif
