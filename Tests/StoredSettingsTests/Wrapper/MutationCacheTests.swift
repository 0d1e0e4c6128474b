import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// Tests of the in-place mutation cache, integer text and the
/// environment read path. No test reads the clock: threads meet on semaphores.
@Suite(.timeLimit(TestScale.hangGuard))
struct MutationCacheTests {
    // MARK: - In-place mutation cache

    /// A Codable struct with a field its coding keys leave out: the stored form never holds
    /// it, so every decode sets it to its default. An in-place mutation must start from the
    /// decoded stored value (what the getter and `update` give), not from the value the last
    /// mutation kept in memory.
    struct Scratchpad: Codable, Equatable, Sendable, StoredValueConvertible {
        var items: [Int] = []
        /// Not stored: its coding keys leave it out.
        var pending: Int = 0

        enum CodingKeys: String, CodingKey { case items }

        mutating func push() {
            items.append(pending)
            pending += 1
        }
    }

    /// A value whose encoded form is normalized: the tag is stored lowercased.
    struct Tag: Codable, Equatable, Sendable, StoredValueConvertible {
        var name: String
        init(_ name: String) { self.name = name }
        init(from decoder: any Decoder) throws { name = try decoder.singleValueContainer().decode(String.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(name.lowercased())
        }
    }

    struct Settings: SettingsGroup {
        @Stored("pad", default: Scratchpad()) var pad: Scratchpad
        @Stored("tags", default: []) var tags: [String]
        @Stored("labels", default: []) var labels: [Tag]
        @Stored("numbers") var numbers: [Int]?
        @Stored("map", default: [:]) var map: [String: Int]
    }

    @Test func anInPlaceMutationOfAStructStartsFromTheDecodedStoredValue() throws {
        let store = InMemoryStore()
        let settings = Settings(store: store)
        settings.pad.push()
        #expect(settings.pad == Scratchpad(items: [0], pending: 0))
        settings.pad.push()
        // Decoded, the stored value has `pending == 0`: the second push appends 0 again.
        #expect(settings.pad.items == [0, 0], "the mutation started from the value the last mutation kept")
        var viaUpdate: Scratchpad?
        try settings.$pad.update { viaUpdate = $0 }
        #expect(viaUpdate?.pending == 0)
    }

    @Test func anInPlaceMutationStartsFromTheDecodedValueNotANormalizedLeftover() throws {
        let store = InMemoryStore()
        let settings = Settings(store: store)
        settings.labels.append(Tag("Work"))
        #expect(store.values["labels"] == .array([.string("work")]))
        // The getter decodes what is stored.
        #expect(settings.labels == [Tag("work")])
        var seen: [Tag] = []
        settings.labels.withFirst { seen.append($0) }
        #expect(seen == [Tag("work")], "the in-place mutation saw a value no decode of the stored data gives")
    }

    /// Another writer removes the key and writes back an array with the same contents in
    /// another spelling (a canonically equivalent string): the stored value is `isIdentical`
    /// to the one the cache kept, but its decode is not the kept value. The mutation must keep
    /// the other writer's spelling, as a decode would.
    @Test func aMutationAfterAnEquivalentSpellingKeepsTheOtherWritersSpelling() throws {
        let store = InMemoryStore()
        let settings = Settings(store: store)
        settings.tags.append("caf\u{E9}")
        try store.setValue(nil, forKey: "tags")
        try store.setValue(.array([.string("cafe\u{301}")]), forKey: "tags")
        // The getter reads the other writer's spelling.
        #expect(settings.tags.first.map { $0.unicodeScalars.count } == 5)
        settings.tags.append("x")
        guard case .array(let items)? = store.values["tags"], case .string(let first)? = items.first else {
            Issue.record("tags: \(String(describing: store.values["tags"]))")
            return
        }
        #expect(items.count == 2)
        #expect(
            first.unicodeScalars.elementsEqual("cafe\u{301}".unicodeScalars),
            "the mutation wrote the spelling the cache kept, over the other writer's")
    }

    /// Another writer's value with the same contents in a buffer of its own, a removal, a
    /// re-adding of other contents, an optional setting going to `nil` and back, a dictionary:
    /// each mutation starts from what is stored.
    @Test func mutationsAfterOtherWritersStartFromWhatIsStored() throws {
        let store = InMemoryStore()
        let settings = Settings(store: store)
        settings.tags.append("a")
        try store.setValue(.array([.string("a")]), forKey: "tags") // same contents, own buffer
        settings.tags.append("b")
        #expect(settings.tags == ["a", "b"])
        try store.setValue(nil, forKey: "tags")
        settings.tags.append("c")
        #expect(settings.tags == ["c"])
        try store.setValue(.array([.string("a"), .string("b")]), forKey: "tags") // an earlier form
        settings.tags.append("d")
        #expect(settings.tags == ["a", "b", "d"])

        settings.numbers = [1]
        settings.numbers?.append(2)
        #expect(settings.numbers == [1, 2])
        try store.setValue(nil, forKey: "numbers")
        settings.numbers?.append(3)
        #expect(settings.numbers == nil)
        #expect(store.values["numbers"] == nil)
        try store.setValue(.array([.int(1), .int(2)]), forKey: "numbers")
        settings.numbers?.append(4)
        #expect(settings.numbers == [1, 2, 4])

        settings.map["a"] = 1
        try store.setValue(.dictionary(["a": .int(1), "b": .int(2)]), forKey: "map")
        settings.map["c"] = 3
        #expect(settings.map == ["a": 1, "b": 2, "c": 3])
        try store.setValue(.dictionary(["a": .string("one")]), forKey: "map")
        let reported = ReportedErrors()
        reported.capture { settings.map["d"] = 4 }
        #expect(reported.errors.count == 1)
        #expect(store.values["map"] == .dictionary(["a": .string("one")]))
    }

    /// Two copies of one wrapper (sharing its setting object and cache) mutated in place from
    /// several threads at once, with plain writes of other values in between: no crash, no
    /// data race, and the last value stored decodes to what the getter returns.
    @Test func concurrentInPlaceMutationsShareTheCacheSafely() throws {
        let store = InMemoryStore()
        let settings = Settings(store: store)
        let copy = settings
        var done: [DispatchSemaphore] = []
        for thread in 0..<4 {
            let group = thread % 2 == 0 ? settings : copy
            done.append(
                ThreadTest.onNewThread {
                    for round in 0..<200 {
                        group.tags.append("\(thread)-\(round)")
                        if round % 10 == 0 { try? store.setValue(.array([.string("reset")]), forKey: "tags") }
                        group.map["t\(thread)", default: 0] += 1
                    }
                })
        }
        for semaphore in done { semaphore.wait() }
        let decoded = try [String](storedValue: #require(store.values["tags"]))
        #expect(decoded == settings.tags)
        settings.tags.append("last")
        #expect(settings.tags.last == "last")
    }

    // MARK: - Integer text

    static let integerCases: [(String, Int?)] = [
        ("+1", 1), ("-0", 0), ("+0", 0), ("007", 7), ("-007", -7), ("9223372036854775807", Int.max),
        ("9223372036854775808", nil), ("-9223372036854775808", Int.min), ("-9223372036854775809", nil),
        ("+9223372036854775807", Int.max), (" 42", 42), ("42 ", 42), ("\n42\t", 42), ("4_2", nil),
        ("\u{FF14}\u{FF12}", nil), ("\u{664}\u{662}", nil), ("", nil), ("+", nil), ("-", nil), ("+-1", nil),
        ("-+1", nil), ("0x10", nil), ("1e3", nil), ("4.0", nil), ("4 2", nil), ("42\u{0}", nil),
        ("999999999999999999", 999_999_999_999_999_999), ("-999999999999999999", -999_999_999_999_999_999),
        ("0000000000000000042", 42), ("-000000000000000001", -1), ("1000000000000000000", 1_000_000_000_000_000_000),
        ("/", nil), (":", nil), ("4/", nil), ("4:", nil), ("\u{A0}42", 42), ("٠", nil),
    ]

    @Test(arguments: integerCases)
    func intReadsIntegerTextAsBefore(text: String, expected: Int?) {
        #expect((try? Int(storedValue: .string(text))) == expected, "\(text.debugDescription)")
        #expect((try? Int64(storedValue: .string(text))) == expected.map { Int64($0) }, "\(text.debugDescription)")
    }

    static let narrowCases: [(String, String, Int?)] = [
        ("UInt8", "256", nil), ("UInt8", "255", 255), ("UInt8", "+255", 255), ("UInt8", "0255", 255),
        ("UInt8", "-1", nil), ("UInt8", "-0", 0), ("UInt", "-1", nil), ("UInt", "-0", 0), ("UInt", "+0", 0),
        ("Int8", "-128", -128), ("Int8", "-0128", -128), ("Int8", "128", nil), ("Int8", "-129", nil),
        ("UInt16", "65536", nil), ("Int32", "-2147483649", nil), ("UInt32", "4294967295", 4_294_967_295),
    ]

    @Test(arguments: narrowCases)
    func narrowIntegersReadIntegerTextAsBefore(type: String, text: String, expected: Int?) {
        let read: Int?
        switch type {
        case "UInt8": read = (try? UInt8(storedValue: .string(text))).map { Int($0) }
        case "UInt": read = (try? UInt(storedValue: .string(text))).map { Int($0) }
        case "Int8": read = (try? Int8(storedValue: .string(text))).map { Int($0) }
        case "UInt16": read = (try? UInt16(storedValue: .string(text))).map { Int($0) }
        case "Int32": read = (try? Int32(storedValue: .string(text))).map { Int($0) }
        default: read = (try? UInt32(storedValue: .string(text))).map { Int($0) }
        }
        #expect(read == expected, "\(type) from \(text.debugDescription)")
    }

    @Test func wideUnsignedTextReadsAsBefore() {
        #expect((try? UInt64(storedValue: .string("18446744073709551615"))) == UInt64.max)
        #expect((try? UInt64(storedValue: .string("18446744073709551616"))) == nil)
        #expect((try? UInt64(storedValue: .string("9223372036854775808"))) == 1 << 63)
        #expect((try? UInt(storedValue: .string("-18446744073709551615"))) == nil)
        // Text from a substring's storage and from a bridged string read the same.
        let long = "x123456789"
        let sub = String(long.dropFirst())
        #expect((try? Int(storedValue: .string(sub))) == 123_456_789)
        let bridged = NSString(string: "-77") as String
        #expect((try? Int(storedValue: .string(bridged))) == -77)
        // Errors keep their messages.
        let error = #expect(throws: StorageError.self) { try UInt8(storedValue: .string("256")) }
        #expect(error?.message == "out of the range of UInt8 (0...255)")
        let fraction = #expect(throws: StorageError.self) { try Int(storedValue: .string("4.5")) }
        #expect(fraction?.message == "not a whole number")
    }

    // MARK: - Environment reads

    @Test func environmentReadsAgreeFromManyThreadsAndStayUnsetWhenUnset() throws {
        let store = EnvironmentStore(
            prefix: "APP_", environment: ["APP_COUNT": "42", "APP_NEG": "-0", "APP_BIG": "9223372036854775808"])
        let results = ThreadTest.Box<[String]>([])
        var done: [DispatchSemaphore] = []
        for _ in 0..<4 {
            done.append(
                ThreadTest.onNewThread {
                    for _ in 0..<200 {
                        let line = [
                            "\(String(describing: store.value(forKey: "count")))",
                            "\(String(describing: store.value(forKey: "missing")))",
                            "\(String(describing: store.value(forKey: "neg")))",
                        ].joined(separator: ",")
                        results.value.append(line)
                    }
                })
        }
        for semaphore in done { semaphore.wait() }
        #expect(Set(results.value).count == 1)
        #expect(store.value(forKey: "missing") == nil)
        #expect((try? Int(storedValue: store.value(forKey: "count") ?? .int(0))) == 42)
        #expect((try? Int(storedValue: store.value(forKey: "big") ?? .int(0))) == nil)
    }
}

extension Array {
    /// Runs `body` on the first element, through an in-place mutation of the array.
    fileprivate mutating func withFirst(_ body: (Element) -> Void) {
        if let first { body(first) }
    }
}
