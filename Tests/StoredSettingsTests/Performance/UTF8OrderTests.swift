import Foundation
import StoredSettings
import Testing

/// The fast key sort of written files keeps the order of the UTF-8 bytes.
struct UTF8OrderTests {
    private func byteOrder(_ keys: [String]) -> [String] {
        keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    @Test(arguments: [
        ["b", "a", "B", "A", "aa", "a.b", "a/b", "a b", "", "_", "10", "9", "key-00010", "key-00002"],
        ["z", "é", "e\u{301}", "😀", "\u{FFFF}", "日本", "a", "Z", "\u{7F}", "ÿ", "ａ"],
        ["a long key that is not a small string: 0001", "a long key that is not a small string: 0000", "a"],
    ])
    func sortsKeysByTheirUTF8Bytes(keys: [String]) {
        #expect(sortedByUTF8(keys) == byteOrder(keys))
        #expect(sortedByUTF8(keys.reversed()) == byteOrder(keys))
    }

    @Test func writesObjectKeysInByteOrder() throws {
        let tree: StoredValue = .dictionary(["é": .int(1), "😀": .int(2), "z": .int(3), "Z": .int(4)])
        let text = try StoredValueJSON.string(from: tree, pretty: false)
        #expect(text == "{\"Z\":4,\"z\":3,\"é\":1,\"😀\":2}")
    }

    @Test func comparesBridgedAndNativeStringsAlike() {
        let bridged = NSString(string: "bridged é").description
        #expect(utf8Precedes("bridged a", bridged))
        #expect(!utf8Precedes(bridged, "bridged a"))
        #expect(!utf8Precedes(bridged, bridged))
    }
}
