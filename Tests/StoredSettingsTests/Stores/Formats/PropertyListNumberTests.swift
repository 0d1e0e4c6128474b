import Foundation
import StoredSettings
import Testing

/// Numbers from property lists and `UserDefaults` keep their kind: a Boolean is a Boolean, and
/// an `Int8` (type code `c` on Apple platforms) is an integer.
struct PropertyListNumberTests {
    @Test(arguments: [Int8.min, -5, 0, 1, 5, Int8.max])
    func int8ReadsAsAnInteger(number: Int8) {
        #expect(PropertyListValue.storedValue(from: NSNumber(value: number)) == .int(Int64(number)))
    }

    @Test(arguments: [false, true])
    func booleanReadsAsABoolean(value: Bool) {
        #expect(PropertyListValue.storedValue(from: NSNumber(value: value)) == .bool(value))
    }

    @Test func booleanFromAPropertyListReadsAsABoolean() throws {
        let data = Data("<plist><dict><key>a</key><true/><key>b</key><integer>1</integer></dict></plist>".utf8)
        let object = try #require(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        #expect(PropertyListValue.storedValue(from: object) == .dictionary(["a": .bool(true), "b": .int(1)]))
    }
}
