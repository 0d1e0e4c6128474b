import Foundation
import StoredSettings
import Testing

/// The shortcuts of the write path's comparisons: `isIdentical` switches on one value and
/// matches the other, and a key compares its representation before its bytes. Each must give
/// the answer of the long way on every input.
@Suite(.timeLimit(TestScale.hangGuard))
struct IdentityFastPathTests {
    /// One or two values of every kind, with near misses across kinds (`1` as an integer, a
    /// double, a string), and containers holding them.
    static let samples: [StoredValue] = [
        .bool(true), .bool(false), .int(0), .int(1), .int(-1), .double(1), .double(0.5),
        .string("1"), .string(""), .string("\u{00C5}"), .string("\u{212B}"),
        .data(Data()), .data(Data([1])), .date(Date(timeIntervalSinceReferenceDate: 1)),
        .date(Date(timeIntervalSinceReferenceDate: 2)), .array([]), .array([.int(1)]), .array([.double(1)]),
        .dictionary([:]), .dictionary(["a": .int(1)]), .dictionary(["a": .string("1")]),
    ]

    @Test func identicalAgreesWithEqualityOnEveryPairOfKinds() {
        var disagreements: [String] = []
        for (i, a) in Self.samples.enumerated() {
            for (j, b) in Self.samples.enumerated() {
                // A fresh copy of `b`, so arrays do not share a buffer with the sample.
                let copy = StoredValue.copied(b)
                // No sample holds a NaN or a negative zero: identity and equality agree.
                if a.isIdentical(to: copy) != (a == copy) { disagreements.append("\(i) and \(j)") }
                if i == j, !a.isIdentical(to: copy) { disagreements.append("\(i) not identical to itself") }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    @Test func doublesAndDatesCompareByBitPatternInsideContainersToo() {
        let nan = StoredValue.array([.double(.nan)])
        let zero = StoredValue.dictionary(["z": .double(0.0)])
        let negativeZero = StoredValue.dictionary(["z": .double(-0.0)])
        let date = StoredValue.date(Date(timeIntervalSinceReferenceDate: 0.0))
        let negativeZeroDate = StoredValue.date(Date(timeIntervalSinceReferenceDate: -0.0))
        #expect(nan.isIdentical(to: .array([.double(.nan)])))
        #expect(!zero.isIdentical(to: negativeZero))
        #expect(zero == negativeZero)
        #expect(!date.isIdentical(to: negativeZeroDate))
    }

    @Test func keysOfOneStringOrOfEqualBytesHaveTheSameScalars() {
        let short = "theme"
        let long = "a key long enough to live in a buffer of its own"
        // Built at run time: the same bytes in buffers of their own.
        let rebuilt = String(decoding: Array(long.utf8), as: UTF8.self)
        let rebuiltShort = String(decoding: Array(short.utf8), as: UTF8.self)
        #expect(short.hasSameScalars(as: short))
        #expect(long.hasSameScalars(as: long))
        #expect(long.hasSameScalars(as: rebuilt))
        #expect(short.hasSameScalars(as: rebuiltShort))
    }

    @Test func keysThatOnlyCompareEqualDoNotHaveTheSameScalars() {
        let composed = "\u{00C5}ngstr\u{00F6}m and a long enough tail to be stored in a buffer"
        let decomposed = "A\u{030A}ngstro\u{0308}m and a long enough tail to be stored in a buffer"
        #expect(composed == decomposed)
        #expect(!composed.hasSameScalars(as: decomposed))
        #expect(!"\u{00C5}".hasSameScalars(as: "\u{212B}"))
        #expect(!"theme".hasSameScalars(as: "themes"))
        // A prefix of the same buffer: a different count, so not the same key.
        let long = "a key long enough to live in a buffer of its own"
        #expect(!long.hasSameScalars(as: String(long.dropLast())))
    }
}

extension StoredValue {
    /// `value` rebuilt node by node, sharing no array or dictionary storage with it.
    fileprivate static func copied(_ value: StoredValue) -> StoredValue {
        switch value {
        case .array(let items): .array(items.map(copied))
        case .dictionary(let items): .dictionary(items.mapValues(copied))
        case .string(let text): .string(String(decoding: Array(text.utf8), as: UTF8.self))
        default: value
        }
    }
}
