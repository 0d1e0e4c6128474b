import StoredSettings
import Testing

/// A keyed container that encodes a key again keeps only the later value, as a dictionary does.
@Suite(.timeLimit(TestScale.hangGuard))
struct EncoderRepeatedKeyTests {
    private enum Key: String, CodingKey { case a, b }

    /// Encodes `a` first as containers nested deeper than a stored tree may be (found when the
    /// tree is built), then as 1.
    private struct Rewritten: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: .a)
            for _ in 0..<80 { nested = nested.nestedContainer(keyedBy: Key.self, forKey: .a) }
            try container.encode(1, forKey: .a)
            try container.encode("kept", forKey: .b)
            try container.encodeNil(forKey: .b)
            try container.encode("again", forKey: .b)
        }
    }

    @Test func aValueReplacedInTheSameContainerIsNeitherKeptNorChecked() throws {
        let tree = try StoredValueEncoder().encode(Rewritten())
        #expect(tree == .dictionary(["a": .int(1), "b": .string("again")]))
    }

    /// `nil` last removes the key.
    private struct Removed: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .a)
            try container.encodeNil(forKey: .a)
            try container.encode(2, forKey: .b)
        }
    }

    @Test func nilEncodedLastRemovesTheKey() throws {
        #expect(try StoredValueEncoder().encode(Removed()) == .dictionary(["b": .int(2)]))
    }

    /// `a` first as 1, then as a nested container filled after `b` is encoded; `b` first as a
    /// super encoder, then as a value, with the super encoder filled after that.
    private struct ContainerAndValueInTurn: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: .a)
            var nested = container.nestedContainer(keyedBy: Key.self, forKey: .a)
            let replaced = container.superEncoder(forKey: .b)
            try container.encode("value", forKey: .b)
            var late = replaced.container(keyedBy: Key.self)
            try late.encode(3, forKey: .a)
            try nested.encode(2, forKey: .b)
        }
    }

    @Test func theLaterOfAValueAndAContainerForOneKeyIsKept() throws {
        #expect(
            try StoredValueEncoder().encode(ContainerAndValueInTurn())
                == .dictionary(["a": .dictionary(["b": .int(2)]), "b": .string("value")]))
    }
}
