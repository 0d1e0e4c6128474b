import Foundation
import StoredSettings
import Testing

@Suite(.timeLimit(TestScale.hangGuard))
struct ListTextTests {
    @Test(arguments: [
        ("garden,tomatoes", ["garden", "tomatoes"]),
        (" garden , tomatoes ", ["garden", "tomatoes"]),
        ("one", ["one"]),
        ("", []),
        ("   ", []),
        ("a\\,b,c", ["a,b", "c"]),
        ("back\\\\slash", ["back\\slash"]),
        ("C:\\notes,D:\\x", ["C:\\notes", "D:\\x"]),
        ("two words, and more", ["two words", "and more"]),
        ("ends\\", ["ends\\"]),
        ("a\r,b\n", ["a", "b"]),
        ("a,\u{3000}b", ["a", "b"]),
    ])
    func commaSeparatedTextReadsAsItsItems(text: String, items: [String]) throws {
        #expect(try [String](storedValue: .string(text)) == items)
    }

    @Test(arguments: ["1,,2", "a,", ",a", "a, ,b", "a,\n,b", "a,\r\n"])
    func emptyItemIsATypeMismatchNamingItsPosition(text: String) {
        let error = #expect(throws: StorageError.self) { try [Int](storedValue: .string(text)) }
        #expect(error?.code == .typeMismatch)
        #expect(error?.description.contains("is empty") == true)
        #expect(error?.description.contains("[Int]") == true)
    }

    @Test func itemsReadAsTheElementType() throws {
        #expect(try [Int](storedValue: .string("1, 2,3")) == [1, 2, 3])
        #expect(try Set<String>(storedValue: .string("a,b,a")) == ["a", "b"])
        #expect(throws: StorageError.self) { try [Int](storedValue: .string("1,two")) }
    }

    @Test func jsonTextStillReadsAsJSON() throws {
        #expect(try [String](storedValue: .string(#"["a,b", "c"]"#)) == ["a,b", "c"])
        #expect(throws: StorageError.self) { try [String](storedValue: .string("[not json")) }
        #expect(throws: StorageError.self) { try [String](storedValue: .string(#"{"a":1}"#)) }
    }

    @Test func listInsideACodableValueReadsFromText() throws {
        struct Tagged: Codable, Equatable, StoredValueConvertible { var tags: [String] }
        let value = try Tagged(storedValue: .dictionary(["tags": .string("x, y")]))
        #expect(value == Tagged(tags: ["x", "y"]))
    }
}
