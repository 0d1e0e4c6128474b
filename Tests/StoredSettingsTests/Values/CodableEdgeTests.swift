import Foundation
import StoredSettings
import Testing

@Suite(.timeLimit(TestScale.hangGuard))
struct CodableEdgeTests {
    enum Mode: String, Codable, StoredValueConvertible { case slow, fast }
    enum Level: Int, Codable, StoredValueConvertible {
        case low = 1
        case high = 9
    }

    class Animal: Codable {
        var name: String
        init(name: String) { self.name = name }
    }

    final class Dog: Animal, @unchecked Sendable {
        // Safe: the tests create and read it on one task only.
        var tricks: [String]
        init(name: String, tricks: [String]) {
            self.tricks = tricks
            super.init(name: name)
        }
        enum CodingKeys: String, CodingKey { case tricks }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            tricks = try container.decode([String].self, forKey: .tricks)
            try super.init(from: container.superDecoder())
        }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(tricks, forKey: .tricks)
            try super.encode(to: container.superEncoder())
        }
    }

    indirect enum Chain: Codable {
        case end
        case link(Chain)
    }

    @Test func codableRawRepresentableIsStoredAsItsRawValue() throws {
        #expect(try Mode.fast.storedValue() == .string("fast"))
        #expect(try Level.high.storedValue() == .int(9))
        #expect(try Mode(storedValue: .string("slow")) == .slow)
        #expect(try Level(storedValue: .string("9")) == .high)
    }

    @Test func unknownRawValueIsATypeMismatchThatDoesNotQuoteTheValue() {
        #expect {
            _ = try Mode(storedValue: .string("purple-secret"))
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .typeMismatch && error?.description.contains("purple-secret") == false
        }
    }

    @Test func classHierarchyKeepsSuperclassUnderSuper() throws {
        let tree = try StoredValueEncoder().encode(Dog(name: "Rex", tricks: ["sit"]))
        #expect(
            tree == .dictionary(["tricks": .array([.string("sit")]), "super": .dictionary(["name": .string("Rex")])]))
        let dog = try StoredValueDecoder().decode(Dog.self, from: tree)
        #expect(dog.name == "Rex" && dog.tricks == ["sit"])
    }

    @Test func intKeyedDictionaryUsesTextKeys() throws {
        let tree = try StoredValueEncoder().encode([3: true, -1: false])
        #expect(tree == .dictionary(["3": .bool(true), "-1": .bool(false)]))
        #expect(try StoredValueDecoder().decode([Int: Bool].self, from: tree) == [3: true, -1: false])
    }

    @Test func intKeyedDictionaryRefusesTextThatIsNotAnInteger() {
        #expect {
            _ = try StoredValueDecoder().decode([Int: Bool].self, from: .dictionary(["x": .bool(true)]))
        } throws: { error in
            (error as? StorageError)?.code == .typeMismatch
        }
    }

    @Test func nilInsideAnArrayIsAnEncodingFailureWithItsPath() {
        struct Tags: Codable { var tags: [String?] }
        #expect {
            _ = try StoredValueEncoder().encode(Tags(tags: ["a", nil]))
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .encodingFailed && error?.codingPath == ["tags", "1"]
                && error?.description == "Setting at 'tags.1': nil cannot be stored inside an array."
        }
    }

    @Test func nilOptionalFieldIsAnAbsentKeyAndReadsBackNil() throws {
        struct Note: Codable, Equatable {
            var title: String
            var body: String?
        }
        let tree = try StoredValueEncoder().encode(Note(title: "t", body: nil))
        #expect(tree == .dictionary(["title": .string("t")]))
        #expect(try StoredValueDecoder().decode(Note.self, from: tree) == Note(title: "t", body: nil))
    }

    @Test func topLevelNilIsAnEncodingFailure() {
        #expect {
            _ = try StoredValueEncoder().encode(Int?.none)
        } throws: { error in
            (error as? StorageError)?.code == .encodingFailed
        }
    }

    @Test func wrongKindDeepInsideNamesThePathTypeAndKind() {
        struct Street: Codable { var name: String }
        struct Address: Codable { var streets: [Street] }
        let tree: StoredValue = .dictionary([
            "streets": .array([.dictionary(["name": .string("a")]), .dictionary(["name": .int(4)])])
        ])
        #expect {
            _ = try StoredValueDecoder().decode(Address.self, from: tree)
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .typeMismatch && error?.codingPath == ["streets", "1", "name"]
                && error?.expectedType == "String" && error?.foundKind == "int"
        }
    }

    @Test func containerOfTheWrongKindNamesTheNestedType() {
        struct Inner: Codable { var a: Int }
        struct Outer: Codable { var inner: Inner }
        #expect {
            _ = try StoredValueDecoder().decode(Outer.self, from: .dictionary(["inner": .array([])]))
        } throws: { error in
            let error = error as? StorageError
            return error?.codingPath == ["inner"] && error?.expectedType == "Inner" && error?.foundKind == "array"
        }
    }

    @Test func invalidEnumCaseInsideAStructIsDataCorruptedNamingTheEnum() {
        struct Config: Codable { var mode: Mode }
        #expect {
            _ = try StoredValueDecoder().decode(Config.self, from: .dictionary(["mode": .string("warp")]))
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .dataCorrupted && error?.codingPath == ["mode"]
                && error?.expectedType == "Mode" && error?.description.contains("warp") == false
        }
    }

    @Test func nestingBeyondTheLimitIsRefused() {
        var chain = Chain.end
        for _ in 0..<100 { chain = .link(chain) }
        #expect {
            _ = try StoredValueEncoder().encode(chain)
        } throws: { error in
            (error as? StorageError)?.code == .nestingTooDeep
        }
    }

    @Test func enumWithAssociatedValuesRoundTrips() throws {
        enum Action: Codable, Equatable {
            case open(path: String, line: Int?)
            case quit
        }
        for action in [Action.open(path: "/a", line: 3), .open(path: "/b", line: nil), .quit] {
            let tree = try StoredValueEncoder().encode(action)
            #expect(try StoredValueDecoder().decode(Action.self, from: tree) == action)
        }
    }

    @Test func userInfoReachesTheCodableImplementation() throws {
        struct Probe: Codable {
            static let key = CodingUserInfoKey(rawValue: "probe")!
            var seen: String
            init(seen: String) { self.seen = seen }
            init(from decoder: any Decoder) throws { seen = decoder.userInfo[Self.key] as? String ?? "none" }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(encoder.userInfo[Self.key] as? String ?? "none")
            }
        }
        #expect(try StoredValueEncoder(userInfo: [Probe.key: "hello"]).encode(Probe(seen: "")) == .string("hello"))
        #expect(try StoredValueDecoder(userInfo: [Probe.key: "hi"]).decode(Probe.self, from: .int(1)).seen == "hi")
    }

    @Test func uint64AboveInt64MaxInsideCodableRoundTrips() throws {
        struct Big: Codable, Equatable {
            var value: UInt64
            var values: [UInt64]
        }
        let big = Big(value: .max, values: [.max, 1])
        let tree = try StoredValueEncoder().encode(big)
        #expect(try StoredValueDecoder().decode(Big.self, from: tree) == big)
    }
}
