import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// Codable shapes that break encoders: very deep values, recursion that adds no container,
/// containers nested by hand, NaN on its way to a JSON file, very large arrays.
@Suite(.timeLimit(TestScale.hangGuard))
struct CodableLimitTests {
    /// A linked list of classes; unlinked iteratively so releasing it cannot overflow the stack.
    final class Node: Codable, @unchecked Sendable {
        // Safe: each test builds, encodes and releases its own list on one task.
        var next: Node?
        init(next: Node? = nil) { self.next = next }

        static func chain(_ count: Int) -> Node {
            let head = Node()
            var tail = head
            for _ in 1..<count {
                let node = Node()
                tail.next = node
                tail = node
            }
            return head
        }

        static func release(_ head: Node) {
            var current: Node? = head
            while let node = current {
                current = node.next
                node.next = nil
            }
        }
    }

    /// Wraps its successor in a single-value container: recursion with no container in between.
    final class Wrapped: Codable, @unchecked Sendable {
        // Safe: as `Node`.
        var inner: Wrapped?
        init() {}
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            if let inner { try container.encode(inner) } else { try container.encode(0) }
        }
        init(from decoder: any Decoder) throws {
            inner = nil
            _ = try decoder.singleValueContainer().decode(Int.self)
        }
    }

    /// Nests keyed containers by hand, `depth` levels, with only a scalar at the bottom.
    struct HandNested: Encodable {
        var depth: Int
        enum Key: String, CodingKey { case a }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for _ in 1..<depth { container = container.nestedContainer(keyedBy: Key.self, forKey: .a) }
            try container.encode(1, forKey: .a)
        }
    }

    /// Nests arrays by hand with unkeyed containers.
    struct HandNestedArrays: Encodable {
        var depth: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            for _ in 1..<depth { container = container.nestedUnkeyedContainer() }
            try container.encode(1)
        }
    }

    @Test func hundredThousandLevelsOfClassesAreRefusedAsTooDeep() {
        let head = Node.chain(100_000)
        defer { Node.release(head) }
        #expect {
            _ = try StoredValueEncoder().encode(head)
        } throws: { error in
            (error as? StorageError)?.code == .nestingTooDeep
        }
    }

    @Test func hundredThousandSingleValueWrappersAreRefusedAsTooDeep() {
        let head = Wrapped()
        var tail = head
        for _ in 1..<100_000 {
            let next = Wrapped()
            tail.inner = next
            tail = next
        }
        defer {
            var current: Wrapped? = head
            while let node = current {
                current = node.inner
                node.inner = nil
            }
        }
        #expect {
            _ = try StoredValueEncoder().encode(head)
        } throws: { error in
            (error as? StorageError)?.code == .nestingTooDeep
        }
    }

    @Test(arguments: [StoredValueEncoder.maximumDepth + 1, 500])
    func containersNestedByHandBeyondTheLimitAreRefused(_ depth: Int) {
        #expect {
            _ = try StoredValueEncoder().encode(HandNested(depth: depth))
        } throws: { error in
            (error as? StorageError)?.code == .nestingTooDeep
        }
        #expect {
            _ = try StoredValueEncoder().encode(HandNestedArrays(depth: depth))
        } throws: { error in
            (error as? StorageError)?.code == .nestingTooDeep
        }
    }

    @Test func containersNestedByHandUpToTheLimitAreWrittenAndReadBackFromAFile() throws {
        let tree = try StoredValueEncoder().encode(HandNested(depth: StoredValueEncoder.maximumDepth))
        let store = try TemporaryFileStore()
        try store.setValue(tree, forKey: "deep")
        #expect(try store.reopened().value(forKey: "deep") == tree)
    }

    @Test func decodingATreeDeeperThanTheLimitIsRefusedNotRecursedInto() {
        indirect enum Tree: Codable {
            case leaf(Int)
            case node([Tree])
        }
        var tree = StoredValue.dictionary(["leaf": .dictionary(["_0": .int(1)])])
        for _ in 0..<200 { tree = .dictionary(["node": .dictionary(["_0": .array([tree])])]) }
        #expect {
            _ = try StoredValueDecoder().decode(Tree.self, from: tree)
        } throws: { error in
            (error as? StorageError)?.code == .nestingTooDeep
        }
    }

    struct Reading: Codable, Equatable, StoredValueConvertible {
        var value: Float
        var label = "sensor"
    }

    @Test func nanInsideAStructIsRefusedByAJSONFileAndThePreviousValueStays() throws {
        let store = try TemporaryFileStore()
        let setting = Stored("reading", default: Reading(value: 1), store: store)
        try setting.save(Reading(value: 2))
        let before = try Data(contentsOf: store.url)
        #expect {
            try setting.save(Reading(value: .nan))
        } throws: { error in
            let error = error as? StorageError
            return error?.code == .encodingFailed && error?.key == "reading"
        }
        #expect(try setting.load() == Reading(value: 2))
        #expect(try Data(contentsOf: store.url) == before)
        #expect(try store.reopened().value(forKey: "reading") == Reading(value: 2).storedValue())
    }

    /// A million elements round-trip; the time limit guards against a cost that grows faster
    /// than the input (the cost itself is a figure of the benchmark, not a bound here).
    @Test(.timeLimit(TestScale.hangGuard)) func aMillionIntsEncodeAndDecode() throws {
        struct Samples: Codable, Equatable { var values: [Int] }
        let samples = Samples(values: Array(0..<1_000_000))
        let tree = try StoredValueEncoder().encode(samples)
        #expect(try StoredValueDecoder().decode(Samples.self, from: tree) == samples)
    }

    @Test func dictionariesKeyedByUUIDAndIntRoundTripThroughAJSONFile() throws {
        struct Index: Codable, Equatable, StoredValueConvertible {
            var byID: [UUID: Int]
            var byNumber: [Int: String]
            var nested: [String: [Int: Bool]]
        }
        let index = Index(
            byID: [UUID(): 1, UUID(): 2], byNumber: [-1: "minus", 0: "zero", Int.max: "max"],
            nested: ["a": [1: true]]
        )
        let store = try TemporaryFileStore()
        try Stored("index", default: index, store: store).save(index)
        #expect(try Index(storedValue: #require(store.reopened().value(forKey: "index"))) == index)
    }

    @Test func doubleOptionalReadsBackAsFarAsATreeCanTell() throws {
        struct Holder: Codable, Equatable { var value: Int?? }
        for holder in [Holder(value: .some(.some(3))), Holder(value: .some(.none)), Holder(value: .none)] {
            let tree = try StoredValueEncoder().encode(holder)
            let back = try StoredValueDecoder().decode(Holder.self, from: tree)
            #expect(back.value ?? nil == holder.value ?? nil)
        }
    }

    @Test func encodeToThatWritesNothingOrTwiceNeverCrashes() throws {
        struct Nothing: Codable, Equatable {
            func encode(to encoder: any Encoder) throws {}
            init() {}
            init(from decoder: any Decoder) throws {}
        }
        struct Twice: Encodable {
            func encode(to encoder: any Encoder) throws {
                var first = encoder.singleValueContainer()
                try first.encode(1)
                var second = encoder.singleValueContainer()
                try second.encode("two")
            }
        }
        #expect(try StoredValueEncoder().encode(Nothing()) == .dictionary([:]))
        #expect(try StoredValueDecoder().decode(Nothing.self, from: .dictionary([:])) == Nothing())
        #expect(try StoredValueEncoder().encode(Twice()) == .string("two"))
    }

    @Test func userInfoReachesDecoding() throws {
        let key = try #require(CodingUserInfoKey(rawValue: "unit"))
        struct Unit: Decodable {
            var unit: String
            init(from decoder: any Decoder) throws {
                unit = decoder.userInfo[CodingUserInfoKey(rawValue: "unit")!] as? String ?? "none"
            }
        }
        let decoded = try StoredValueDecoder(userInfo: [key: "cm"]).decode(Unit.self, from: .dictionary([:]))
        #expect(decoded.unit == "cm")
    }
}

/// Trees handed straight to a store, bypassing the encoder.
@Suite(.timeLimit(TestScale.hangGuard))
struct StoredTreeLimitTests {
    @Test func jsonFileRefusesATreeItCouldNotReadBackAndKeepsEveryKey() throws {
        let store = try TemporaryFileStore()
        try store.setValue(.int(1), forKey: "keep")
        let before = try Data(contentsOf: store.url)
        var tree = StoredValue.int(1)
        for _ in 0..<80 { tree = .array([tree]) }
        #expect {
            try store.setValue(tree, forKey: "deep")
        } throws: { error in
            (error as? StorageError)?.code == .nestingTooDeep
        }
        #expect(try Data(contentsOf: store.url) == before)
        #expect(try store.reopened().value(forKey: "keep") == .int(1))
    }
}
