import Foundation
import StoredSettings
import Testing

@Suite(.timeLimit(TestScale.hangGuard))
struct OptionalIdentityTests {
    @Test func absentValuesAreIdenticalToEachOtherOnly() {
        let absent: StoredValue? = nil
        let zero: StoredValue? = .int(0)
        let bothAbsent = absent.isIdentical(to: absent)
        let absentAndZero = absent.isIdentical(to: zero)
        let zeroAndAbsent = zero.isIdentical(to: absent)
        #expect(bothAbsent)
        #expect(!absentAndZero)
        #expect(!zeroAndAbsent)
    }

    @Test func presentValuesCompareByBitPattern() {
        let nan: StoredValue? = .double(.nan)
        let negativeZero: StoredValue? = .double(-0.0)
        let list: StoredValue? = .array([.bool(true)])
        let one: StoredValue? = .int(1)
        let nanAndNaN = nan.isIdentical(to: .double(.nan))
        let negativeAndPositiveZero = negativeZero.isIdentical(to: .double(0.0))
        let equalLists = list.isIdentical(to: .array([.bool(true)]))
        let oneAndTwo = one.isIdentical(to: .int(2))
        #expect(nanAndNaN)
        #expect(!negativeAndPositiveZero)
        #expect(equalLists)
        #expect(!oneAndTwo)
    }
}
