import Foundation
import StoredSettings
import Testing

@Suite(.timeLimit(TestScale.hangGuard))
struct CodableRoundTripTests {
    struct Address: Codable, Equatable {
        var street: String
        var zip: String?
    }
    struct Person: Codable, Equatable, StoredValueConvertible {
        var name: String
        var age: Int
        var address: Address
        var tags: [String]
        var born: Date
        var avatar: Data
        var homepage: URL
        var id: UUID
        var balance: Decimal
        var nickname: String?
    }

    static let ada = Person(
        name: "Ada", age: 36, address: Address(street: "1 Loop", zip: nil), tags: ["math", "engines"],
        born: Date(timeIntervalSinceReferenceDate: 12.25), avatar: Data([1, 2, 3]),
        homepage: URL(string: "https://example.com/a?b=c#d")!, id: UUID(),
        balance: Decimal(string: "12.345")!, nickname: nil
    )

    @Test func encodesNestedStructAsPlainTree() throws {
        let tree = try Self.ada.storedValue()
        guard case .dictionary(let items) = tree else {
            Issue.record("not a dictionary: \(tree)")
            return
        }
        #expect(items["name"] == .string("Ada"))
        #expect(items["age"] == .int(36))
        #expect(items["address"] == .dictionary(["street": .string("1 Loop")]))
        #expect(items["tags"] == .array([.string("math"), .string("engines")]))
        #expect(items["born"] == .date(Date(timeIntervalSinceReferenceDate: 12.25)))
        #expect(items["avatar"] == .data(Data([1, 2, 3])))
        #expect(items["homepage"] == .string("https://example.com/a?b=c#d"))
        #expect(items["id"] == .string(Self.ada.id.uuidString))
        #expect(items["balance"] == .string("12.345"))
        #expect(items["nickname"] == nil)
    }

    @Test func decodesWhatItEncodes() throws {
        let tree = try Self.ada.storedValue()
        #expect(try Person(storedValue: tree) == Self.ada)
    }
}
