import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// The order a `Set` is stored in: each kind in its natural order, kinds in a fixed order, so
/// the same set always gives the same array.
@Suite(.timeLimit(TestScale.hangGuard))
struct SetOrderTests {
    @Test func integersAreStoredInNumericOrder() throws {
        let stored = try Set<Int>([10, 9, -2, -10, 100, 0]).storedValue()
        #expect(stored == .array([.int(-10), .int(-2), .int(0), .int(9), .int(10), .int(100)]))
    }

    @Test func doublesAreStoredInNumericOrder() throws {
        let stored = try Set<Double>([2.5, 10, -1, 1e-5]).storedValue()
        #expect(stored == .array([.double(-1), .double(1e-5), .double(2.5), .double(10)]))
    }

    @Test func datesAreStoredInTimeOrder() throws {
        let early = Date(timeIntervalSinceReferenceDate: -5)
        let late = Date(timeIntervalSinceReferenceDate: 40)
        let stored = try Set([late, early]).storedValue()
        #expect(stored == .array([.date(early), .date(late)]))
    }

    @Test func dataIsStoredInByteOrder() throws {
        // Base64 text would put "/w==" (0xFF) before "AA==" (0x00); bytes compare as numbers.
        let stored = try Set([Data([0xFF]), Data([0x00]), Data([0x00, 0x01])]).storedValue()
        #expect(stored == .array([.data(Data([0x00])), .data(Data([0x00, 0x01])), .data(Data([0xFF]))]))
    }

    @Test func stringsKeepTheirOrder() throws {
        let stored = try Set(["b", "a", "B", "é", "aa", ""]).storedValue()
        #expect(stored == .array(["", "B", "a", "aa", "b", "é"].map(StoredValue.string)))
    }

    @Test func kindsComeInAFixedOrder() {
        let values: [StoredValue] = [
            .dictionary(["a": .int(1)]), .array([.int(1)]), .data(Data([1])),
            .date(Date(timeIntervalSinceReferenceDate: 0)),
            .string("s"), .int(1), .double(1), .bool(true), .bool(false),
        ]
        let sorted = values.sorted { $0.precedesInSetOrder($1) }
        #expect(
            sorted.map(\.kind) == ["bool", "bool", "double", "int", "string", "date", "data", "array", "dictionary"])
        #expect(sorted.first == .bool(false))
    }

    @Test func containersAreOrderedByTheirElements() {
        let short: StoredValue = .array([.int(1)])
        let long: StoredValue = .array([.int(1), .int(0)])
        let later: StoredValue = .array([.int(2)])
        #expect(short.precedesInSetOrder(long))
        #expect(long.precedesInSetOrder(later))
        #expect(!later.precedesInSetOrder(short))
        let first: StoredValue = .dictionary(["a": .int(1)])
        let second: StoredValue = .dictionary(["a": .int(2)])
        #expect(first.precedesInSetOrder(second))
        #expect(!second.precedesInSetOrder(first))
        #expect(!first.precedesInSetOrder(first))
    }
}
