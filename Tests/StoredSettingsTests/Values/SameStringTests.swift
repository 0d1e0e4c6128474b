import Foundation
import StoredSettings
import Testing

/// The fast comparisons of strings and values against what they stand in for: the bitwise
/// `String` comparison against a scalar-by-scalar one, and `isIdentical` against the
/// comparison it replaced, for strings made in every way a program makes them.
@Suite(.timeLimit(TestScale.hangGuard))
struct SameStringTests {
    /// Spellings of a few texts, each made another way: literals, substrings made strings,
    /// appends, UTF-16 and Latin-1 sources, Foundation strings, and canonically equivalent
    /// spellings of other scalars.
    static let spellings: [String] = {
        let long = String(repeating: "setting-", count: 4)
        var appended = "caf"
        appended.append("é")
        var appendedLong = long
        appendedLong += "é"
        let decomposed = "cafe\u{301}"
        let fromUTF16 = String(decoding: Array("café".utf16), as: UTF16.self)
        let latin1 = String(data: Data([0x63, 0x61, 0x66, 0xE9]), encoding: .isoLatin1) ?? "?"
        let foundation = NSString(string: "café") as String
        let foundationLong = NSString(string: long + "é").appending("")
        let formatted = String(format: "%@%@", "caf", "é")
        let sliced = String(("xcafé" as String).dropFirst())
        let slicedLong = String((long + "éx").dropLast())
        let wholeSlice = String(appendedLong[...])
        let ohm = "\u{2126}" // OHM SIGN, canonically equivalent to Ω U+03A9
        let omega = "\u{03A9}"
        let angstrom = "\u{212B}"
        let ringA = "\u{00C5}"
        let ringADecomposed = "A\u{030A}"
        let hangul = "\u{D55C}"
        let hangulJamo = "\u{1112}\u{1161}\u{11AB}"
        return [
            "café", appended, decomposed, fromUTF16, latin1, foundation, formatted, sliced,
            long + "é", appendedLong, foundationLong, slicedLong, wholeSlice, long + "e\u{301}",
            ohm, omega, angstrom, ringA, ringADecomposed, hangul, hangulJamo, "", "a", "a\u{0}",
        ]
    }()

    @Test func theBitwiseComparisonNeverSaysSameForDifferentScalars() {
        for a in Self.spellings {
            for b in Self.spellings {
                let scalars = Array(a.unicodeScalars) == Array(b.unicodeScalars)
                #expect(a.hasSameScalars(as: b) == scalars, "\(a.debugDescription) \(b.debugDescription)")
                if a.hasSameRepresentation(as: b) {
                    #expect(scalars, "\(a.debugDescription) \(b.debugDescription)")
                }
            }
            let copy = a
            #expect(a.hasSameRepresentation(as: copy))
        }
    }

    /// A store keeps the first spelling of a key and refuses a canonically equivalent one of
    /// other scalars, however either string was made; the same scalars made another way write
    /// the same key.
    @Test func aStoreTellsKeysBySpellingHoweverTheStringsWereMade() throws {
        for first in Self.spellings where !first.isEmpty && !first.contains("\u{0}") {
            for second in Self.spellings where second == first {
                let storage = DictionaryStorage()
                try storage.setValue(.int(1), forKey: first)
                if Array(first.unicodeScalars) == Array(second.unicodeScalars) {
                    try storage.setValue(.int(2), forKey: second)
                    try storage.update(forKey: second) { $0 = .int(3) }
                    #expect(storage.snapshot.count == 1)
                    #expect(storage.keys().first.map { Array($0.unicodeScalars) } == Array(first.unicodeScalars))
                    #expect(storage.value(forKey: first) == .int(3))
                } else {
                    #expect(throws: StorageError.self, "\(first.debugDescription) \(second.debugDescription)") {
                        try storage.setValue(.int(2), forKey: second)
                    }
                    #expect(throws: StorageError.self) { try storage.update(forKey: second) { $0 = .int(2) } }
                    #expect(storage.value(forKey: first) == .int(1))
                }
            }
        }
    }

    /// The comparison `isIdentical` had before it became one switch per case.
    static func referenceIdentical(_ a: StoredValue, _ b: StoredValue) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
        case (.date(let x), .date(let y)):
            x.timeIntervalSinceReferenceDate.bitPattern == y.timeIntervalSinceReferenceDate.bitPattern
        case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy { referenceIdentical($0, $1) }
        case (.dictionary(let x), .dictionary(let y)):
            x.count == y.count && x.allSatisfy { key, value in y[key].map { referenceIdentical(value, $0) } ?? false }
        default: a == b
        }
    }

    static let values: [StoredValue] = {
        let scalars: [StoredValue] = [
            .bool(true), .bool(false), .int(0), .int(1), .int(-1), .double(0), .double(-0.0), .double(.nan),
            .double(-.nan), .double(1), .date(Date(timeIntervalSinceReferenceDate: 0)),
            .date(Date(timeIntervalSinceReferenceDate: -0.0)), .data(Data()), .data(Data([0])),
        ]
        let strings = spellings.map { StoredValue.string($0) }
        let shared: [StoredValue] = [.int(1), .string("café")]
        let arrays: [StoredValue] = [
            .array([]), .array(shared), .array(shared), .array([.int(1), .string("cafe\u{301}")]),
            .array([.double(.nan)]), .array([.double(-0.0)]), .array([.double(0)]),
        ]
        let dictionaries: [StoredValue] = [
            .dictionary([:]), .dictionary(["café": .int(1)]), .dictionary(["cafe\u{301}": .int(1)]),
            .dictionary(["café": .double(-0.0)]), .dictionary(["café": .double(0)]),
            .dictionary(["a": .array(shared), "b": .dictionary(["c": .double(.nan)])]),
            .dictionary(["a": .array(shared), "b": .dictionary(["c": .double(.nan)])]),
        ]
        return scalars + strings + arrays + dictionaries
    }()

    @Test func isIdenticalAgreesWithTheComparisonItReplaced() {
        for a in Self.values {
            for b in Self.values {
                #expect(a.isIdentical(to: b) == Self.referenceIdentical(a, b), "\(a) \(b)")
            }
        }
    }
}
