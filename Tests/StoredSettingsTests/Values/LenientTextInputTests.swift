import Foundation
import StoredSettings
import Testing

/// Text that people and scripts really produce: trailing newlines from `$(cat file)`, hex and
/// overflowing numbers, impossible calendar dates. Each either reads exactly or is refused with
/// `.typeMismatch`; none is silently turned into another value.
@Suite(.timeLimit(TestScale.hangGuard))
struct LenientTextInputTests {
    /// The same table case as the main lenient-text tests.
    typealias Case = LenientTextTests.Case

    static let accepted: [Case] = [
        Case("  TRUE ", true), Case("yes\n", true), Case("\toff\r\n", false),
        Case("+5", 5), Case("-0", 0), Case(" 42\n", 42), Case("-0", UInt8(0)),
        Case("inf", Double.infinity), Case("-Infinity", -Double.infinity), Case("nan", bits: .nan),
        Case("NaN", bits: .nan), Case("1e-400", 0.0), Case("2.5\n", 2.5), Case("-inf", -Float.infinity),
        Case("2026-01-01t10:00:00z", Date(timeIntervalSince1970: 1_767_261_600)),
        Case("2026-01-01T15:30:00+05:30", Date(timeIntervalSince1970: 1_767_261_600)),
        Case("2026-01-01T10:00:00.00000000000000000000Z", Date(timeIntervalSince1970: 1_767_261_600)),
        Case("2026-01-01T10:00:00Z\n", Date(timeIntervalSince1970: 1_767_261_600)),
        Case("e621e1f8-c36c-495a-93fc-0c247a3e6e5f\n", UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
        Case("AQID\n", Data([1, 2, 3])), Case("AQ ID", Data([1, 2, 3])), Case("AQIDBA==\n", Data([1, 2, 3, 4])),
        Case("12.5\n", Decimal(string: "12.5")!),
    ]

    static let refused: [Case] = [
        Case("0x10", 16), Case("1e3", 1000), Case("٣", 3), Case("4_2", 42), Case("-", 0), Case("+", 0),
        Case("9223372036854775808", Int64.max), Case("-1", UInt8.max), Case("--5", 5),
        Case("0x10", 16.0), Case("0x1p4", 16.0), Case("1e400", Double.infinity), Case("-1e400", -Double.infinity),
        Case("1e39", Float.infinity), Case("nan(0x7)", 0.0), Case("1,5", 1.5), Case("٣", 3.0),
        Case("1e400", Decimal(0)), Case("NaN", Decimal(0)), Case("-1e-400", Decimal(0)),
        Case("2026-02-30T00:00:00Z", Date()), Case("2026-13-01T00:00:00Z", Date()),
        Case("2026-01-01T25:00:00Z", Date()), Case("2026-01-01T10:61:00Z", Date()),
        Case("2026-01-01T10:00:00+05:30.5", Date()), Case("2026-01-01T10:00:00.Z", Date()),
        Case("2026-01-01T10:00:00.5.5Z", Date()), Case("2026-01-01", Date()), Case("T", Date()),
        Case("{e621e1f8-c36c-495a-93fc-0c247a3e6e5f}", UUID()),
        Case("AQI!D", Data()), Case("A", Data()), Case("-_8=", Data()), Case("AQIDBA", Data()),
        Case("sk-live-4242-SECRET", Data()),
    ]

    @Test(arguments: accepted)
    func readsUnambiguousText(_ testCase: Case) throws {
        #expect(try testCase.reads(.string(testCase.text)))
    }

    @Test(arguments: refused)
    func refusesAmbiguousOrImpossibleText(_ testCase: Case) {
        #expect {
            let matched = try testCase.reads(.string(testCase.text))
            Issue.record("read \(testCase.text.debugDescription) (matches expected: \(matched))")
        } throws: { error in
            (error as? StorageError)?.code == .typeMismatch
        }
    }

    @Test(arguments: [
        Date(timeIntervalSinceReferenceDate: -1e11), Date(timeIntervalSinceReferenceDate: -63_114_076_800),
        Date(timeIntervalSinceReferenceDate: -63_114_076_800.5), Date(timeIntervalSinceReferenceDate: 2.5e11),
        Date(timeIntervalSinceReferenceDate: 1e13), Date.distantPast, Date.distantFuture,
        Date(timeIntervalSinceReferenceDate: -0.0), Date(timeIntervalSinceReferenceDate: .leastNonzeroMagnitude),
    ])
    func dateTextOfAnyYearReadsBackToTheBit(_ date: Date) throws {
        let value = try StoredValueJSON.parse(StoredValueJSON.data(from: date.storedValue()))
        let back = try Date(storedValue: value)
        // To the bit: `==` on Double would call -0.0 and +0.0 equal.
        #expect(
            back.timeIntervalSinceReferenceDate.bitPattern == date.timeIntervalSinceReferenceDate.bitPattern, "\(value)"
        )
    }

    @Test func decimalNaNIsRefusedWhenWritten() {
        #expect {
            let value = try Decimal.nan.storedValue()
            _ = try Decimal(storedValue: value)
        } throws: { error in
            (error as? StorageError)?.code == .encodingFailed
        }
    }

    @Test(arguments: [1e300, -1e200, Double.greatestFiniteMagnitude])
    func decimalFromADoubleBeyondItsRangeIsRefused(_ number: Double) {
        #expect {
            let decimal = try Decimal(storedValue: .double(number))
            Issue.record("read \(number) as \(decimal)")
        } throws: { error in
            (error as? StorageError)?.code == .typeMismatch
        }
    }
}

extension LenientTextTests.Case {
    /// A case compared by bit pattern (NaN).
    init(_ text: String, bits expected: Double) {
        self.text = text
        self.type = "Double"
        self.reads = { try Double(storedValue: $0).isNaN == expected.isNaN }
    }
}
