import Foundation
public import StoredSettings

extension StoreConformance {
    /// One row of the type table: a value of a supported type, written to a store and read
    /// back (and after a relaunch) as that type, compared exactly.
    ///
    /// Floating-point values and dates compare by bit pattern (so `-0.0` differs from `0.0`
    /// and NaN equals NaN), strings by Unicode scalars (so `é` differs from `e` + U+0301).
    public struct ValueCase: Sendable, CustomStringConvertible {
        /// What the row holds, such as `Double -0.0`.
        public let name: String
        /// What a medium must be able to hold for this row.
        public let needs: Limitations
        let encode: @Sendable () throws -> StoredValue
        let matches: @Sendable (StoredValue) throws -> Bool

        /// A row for `value`, compared with `equal`.
        ///
        /// - Parameters:
        ///   - name: What the row holds.
        ///   - value: The value written.
        ///   - needs: What a medium must hold for it.
        ///   - equal: Whether the value read back is the same as `value`.
        public init<T: StoredValueConvertible>(
            _ name: String, _ value: T, needs: Limitations = [],
            equal: @escaping @Sendable (T, T) -> Bool
        ) {
            self.name = name
            self.needs = needs
            self.encode = { try value.storedValue() }
            self.matches = { stored in equal(try T(storedValue: stored), value) }
        }

        /// A row for `value`, compared with `==`.
        public init<T: StoredValueConvertible & Equatable>(_ name: String, _ value: T, needs: Limitations = []) {
            self.init(name, value, needs: needs, equal: ==)
        }

        /// The row's name.
        public var description: String { name }
    }

    /// Checks one row on a fresh subject: the value reads back exactly, from the same
    /// instance and after a relaunch; or, when the row needs what the medium cannot hold, the
    /// write throws ``StorageError/Code/encodingFailed`` and the previous value stays.
    ///
    /// - Returns: The failures; empty when the row passes.
    public func check(_ valueCase: ValueCase) -> [Failure] {
        withSubject(valueCase.name) { subject in
            let name = valueCase.name
            let key = "value"
            let previous = StoredValue.string("previous")
            let mayRefuse = !valueCase.needs.isDisjoint(with: limitations)
            let stored = try valueCase.encode()
            if mayRefuse { try subject.store.setValue(previous, forKey: key) }
            do {
                try subject.store.setValue(stored, forKey: key)
            } catch let error as StorageError where mayRefuse && error.code == .encodingFailed {
                return checkPrevious(previous, key: key, name: name, subject: subject)
            } catch {
                return [Failure(check: name, message: "the write threw \(error)")]
            }
            var failures: [Failure] = []
            failures += readBack(valueCase, from: subject.store, key: key, when: "read back")
            if let reopen = subject.reopen {
                failures += readBack(valueCase, from: try reopen(), key: key, when: "after a relaunch")
            }
            return failures
        }
    }

    private func readBack(_ valueCase: ValueCase, from store: any Storable, key: String, when: String) -> [Failure] {
        guard let value = store.value(forKey: key) else {
            return [Failure(check: valueCase.name, message: "\(when): the key holds nothing")]
        }
        do {
            if try valueCase.matches(value) { return [] }
            return [Failure(check: valueCase.name, message: "\(when): the value differs (stored as \(value.kind))")]
        } catch {
            return [Failure(check: valueCase.name, message: "\(when): the value does not decode: \(error)")]
        }
    }

    private func checkPrevious(_ previous: StoredValue, key: String, name: String, subject: Subject) -> [Failure] {
        var failures: [Failure] = []
        if subject.store.value(forKey: key) != previous {
            failures.append(Failure(check: name, message: "a refused write changed the previous value"))
        }
        if let reopen = subject.reopen {
            do {
                if try reopen().value(forKey: key) != previous {
                    failures.append(
                        Failure(check: name, message: "a refused write changed the previous value on the medium"))
                }
            } catch {
                failures.append(Failure(check: name, message: "the store could not be reopened: \(error)"))
            }
        }
        return failures
    }
}

// MARK: - The type table

extension StoreConformance {
    /// The type table: every supported type, at its edges.
    ///
    /// Booleans; every integer width at min, max and zero; `Float` and `Double` with `-0.0`,
    /// subnormals, extremes, infinities and NaN; strings with NUL, emoji, combining marks,
    /// control characters and 100,000 characters; empty and 1 MB `Data`; dates with sub-second
    /// parts, before 2001, `distantPast` and `distantFuture`; URLs with query and fragment,
    /// file URLs, relative URLs; `UUID`; `Decimal`; nested collections and `Set`; String- and
    /// Int-backed enums; a Codable-and-RawRepresentable enum; Codable structs nested 5 deep; an
    /// enum with associated values; a Codable struct holding `[Int: Bool]` and optionals.
    public static let valueCases: [ValueCase] = scalarCases + textCases + foundationCases + structuredCases

    static let scalarCases: [ValueCase] = {
        var cases: [ValueCase] = [ValueCase("Bool true", true), ValueCase("Bool false", false)]
        func integers<T: FixedWidthInteger & StoredValueConvertible>(_ type: T.Type) -> [ValueCase] {
            [ValueCase("\(T.self).min", T.min), ValueCase("\(T.self).max", T.max), ValueCase("\(T.self) 0", T.zero)]
        }
        cases +=
            integers(Int.self) + integers(Int8.self) + integers(Int16.self) + integers(Int32.self)
            + integers(Int64.self)
        cases +=
            integers(UInt.self) + integers(UInt8.self) + integers(UInt16.self) + integers(UInt32.self)
            + integers(UInt64.self)
        let doubles: [(String, Double, Limitations)] = [
            ("0.0", 0.0, []), ("-0.0", -0.0, []), ("pi", .pi, []), ("0.1", 0.1, []), ("-1e300", -1e300, []),
            ("greatestFiniteMagnitude", .greatestFiniteMagnitude, []),
            ("leastNormalMagnitude", .leastNormalMagnitude, []),
            ("subnormal", .leastNonzeroMagnitude, []), ("subnormal 0x1234", Double(bitPattern: 0x1234), []),
            ("whole 3.0", 3.0, []),
            ("infinity", .infinity, .nonFiniteNumbers), ("-infinity", -.infinity, .nonFiniteNumbers),
            ("nan", .nan, .nonFiniteNumbers),
        ]
        cases += doubles.map {
            ValueCase("Double \($0.0)", $0.1, needs: $0.2, equal: { $0.bitPattern == $1.bitPattern })
        }
        let floats: [(String, Float, Limitations)] = [
            ("-0.0", -0.0, []), ("0.1", 0.1, []), ("greatestFiniteMagnitude", .greatestFiniteMagnitude, []),
            ("subnormal", .leastNonzeroMagnitude, []), ("infinity", .infinity, .nonFiniteNumbers),
            ("nan", .nan, .nonFiniteNumbers),
        ]
        cases += floats.map { ValueCase("Float \($0.0)", $0.1, needs: $0.2, equal: { $0.bitPattern == $1.bitPattern }) }
        return cases
    }()

    static let textCases: [ValueCase] = {
        let scalarsEqual: @Sendable (String, String) -> Bool = { Array($0.unicodeScalars) == Array($1.unicodeScalars) }
        let strings: [(String, String, Limitations)] = [
            ("empty", "", []),
            ("NUL", "a\u{0}b", .controlCharactersInStrings),
            ("emoji", "👩‍👩‍👧‍👦 🇸🇪 ✨", []),
            ("combining marks", "e\u{301} a\u{308}\u{332} \u{1100}\u{1161}", []),
            ("precomposed", "é", []),
            ("tab, newline, return", "tab\tnewline\ncr\r", []),
            ("control characters", "escape\u{1B} bell\u{7} del\u{7F}", .controlCharactersInStrings),
            ("quotes and backslashes", "\"quoted\" \\ 'single' </tag> & ]]>", []),
            ("numeric text", "0042", []),
            ("100,000 characters", String(repeating: "abcdéfghi\u{1F600}", count: 10_000), []),
        ]
        return strings.map { ValueCase("String \($0.0)", $0.1, needs: $0.2, equal: scalarsEqual) }
    }()

    static let foundationCases: [ValueCase] = {
        let sameInstant: @Sendable (Date, Date) -> Bool = {
            $0.timeIntervalSinceReferenceDate.bitPattern == $1.timeIntervalSinceReferenceDate.bitPattern
        }
        let dates: [(String, Date)] = [
            ("whole seconds", Date(timeIntervalSinceReferenceDate: 817_000_000)),
            ("sub-second", Date(timeIntervalSinceReferenceDate: 817_000_000.123456)),
            ("before 2001 with fraction", Date(timeIntervalSince1970: -1.5)),
            ("reference date", Date(timeIntervalSinceReferenceDate: 0)),
            ("distantPast", .distantPast),
            ("distantFuture", .distantFuture),
        ]
        let sameText: @Sendable (URL, URL) -> Bool = { $0.absoluteString == $1.absoluteString }
        var urls: [(String, URL)] = []
        for (name, text) in [
            ("with query and fragment", "https://example.com/path/a%20b?q=1&r=two%3D#frag"),
            ("file", "file:///tmp/My%20Settings/settings.json"),
            ("relative", "docs/readme.md?x=1"),
            ("mailto", "mailto:ada@example.com"),
        ] {
            if let url = URL(string: text) { urls.append((name, url)) }
        }
        if let base = URL(string: "https://example.com/base/"), let url = URL(string: "child?q=1#f", relativeTo: base) {
            urls.append(("relative to a base", url))
        }
        urls.append(("file path", URL(fileURLWithPath: "/var/tmp/settings file.json")))
        var cases: [ValueCase] = [
            ValueCase("Data empty", Data()),
            ValueCase("Data bytes", Data([0, 1, 2, 0xFE, 0xFF])),
            ValueCase("Data 1 MB", Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })),
            ValueCase(
                "UUID",
                UUID(
                    uuid: (
                        0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0, 0x01, 0x23, 0x45, 0x67, 0x89, 0xAB, 0xCD, 0xEF
                    ))),
        ]
        cases += dates.map { ValueCase("Date \($0.0)", $0.1, equal: sameInstant) }
        cases += urls.map { ValueCase("URL \($0.0)", $0.1, equal: sameText) }
        for text in ["0", "-12.5", "3.14159265358979323846264338327950288", "12345678901234567890123456789012345678"] {
            if let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) {
                cases.append(ValueCase("Decimal \(text)", decimal))
            }
        }
        return cases
    }()

    static let structuredCases: [ValueCase] = [
        ValueCase("[Int]", [1, -2, Int.max, Int.min]),
        ValueCase("[Int] empty", [Int]()),
        ValueCase("[[String]]", [["a", "b"], [], ["ü"]]),
        ValueCase("[String: [Int]]", ["a": [1, 2], "b": [], "with.dot": [3]]),
        ValueCase("[String: Bool] empty", [String: Bool]()),
        ValueCase("Set<String>", Set(["x", "y", "z"])),
        ValueCase("[Date]", [Date(timeIntervalSinceReferenceDate: 1.5), Date(timeIntervalSinceReferenceDate: -2.25)]),
        ValueCase("[UInt64] above Int64.max", [UInt64.max, 0]),
        ValueCase("String-backed enum", TableTheme.dark),
        ValueCase("Int-backed enum", TablePriority.high),
        ValueCase("Codable RawRepresentable enum", TableMode.fast),
        ValueCase("Codable struct nested 5 deep", TableLevel1.sample),
        ValueCase("enum with associated values", TableShape.rectangle(width: 2.5, height: 4)),
        ValueCase("enum without payload", TableShape.point),
        ValueCase("[enum with associated values]", [TableShape.circle(radius: 1), .point, .named("x", tags: ["a"])]),
        ValueCase("Codable with [Int: Bool] and optionals", TableFlags.sample),
        ValueCase("Codable with nil optionals", TableFlags(flags: [:], note: nil, limit: nil, dates: [])),
    ]
}

// MARK: - Types of the table

enum TableTheme: String, StoredValueConvertible { case system, light, dark }
enum TablePriority: Int, StoredValueConvertible {
    case low = -1
    case normal = 0
    case high = 10
}
enum TableMode: String, Codable, StoredValueConvertible { case slow, fast }

enum TableShape: Codable, Equatable, StoredValueConvertible {
    case point
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case named(String, tags: [String])
}

struct TableFlags: Codable, Equatable, StoredValueConvertible {
    var flags: [Int: Bool]
    var note: String?
    var limit: UInt64?
    var dates: [Date]

    static let sample = TableFlags(
        flags: [1: true, -7: false, 1_000_000: true], note: "n", limit: .max,
        dates: [Date(timeIntervalSinceReferenceDate: 10.125)]
    )
}

struct TableLevel1: Codable, Equatable, StoredValueConvertible {
    var name: String
    var level2: TableLevel2
    static let sample = TableLevel1(
        name: "one",
        level2: TableLevel2(
            count: 2,
            level3: TableLevel3(
                items: [
                    TableLevel4(
                        level5: TableLevel5(
                            flag: true, when: Date(timeIntervalSinceReferenceDate: 5.5), ratio: -0.25, data: Data([9])))
                ]
            )))
}
struct TableLevel2: Codable, Equatable {
    var count: Int
    var level3: TableLevel3
}
struct TableLevel3: Codable, Equatable { var items: [TableLevel4] }
struct TableLevel4: Codable, Equatable { var level5: TableLevel5 }
struct TableLevel5: Codable, Equatable {
    var flag: Bool
    var when: Date
    var ratio: Double
    var data: Data
}
