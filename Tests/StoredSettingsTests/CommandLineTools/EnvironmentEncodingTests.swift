import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// `EnvironmentStore` lists only keys it can read, and a variable whose bytes are not UTF-8 is
/// reported by name instead of being read with U+FFFD in place of the bytes.
struct EnvironmentEncodingTests {
    @Test func everyListedKeyReadsItsVariable() {
        let store = EnvironmentStore(prefix: "APP", environment: [
            "APP_THEME": "dark", "APP_lower": "a", "APP_TWO__PARTS": "b", "APP_DASH-ED": "c",
            "APP_EDITOR_FONT_SIZE": "12", "APP_X9": "d",
        ])
        let keys = store.keys()
        for key in keys {
            #expect(store.value(forKey: key) != nil, "keys() lists \(key), which value(forKey:) cannot read")
        }
        #expect(Set(keys).isSuperset(of: ["theme", "editorFontSize", "x9"]))
    }

    @Test func aVariableThatIsNotUTF8IsReportedByNameAndNotListed() throws {
        let raw: [[UInt8]] = [Array("APP_NAME=caf".utf8) + [0xE9], Array("APP_THEME=dark".utf8)]
        let store = EnvironmentStore(prefix: "APP", rawEnvironment: raw)
        #expect(store.keys() == ["theme"])
        let reported = ReportedErrors()
        let value = reported.capture { store.value(forKey: "name") }
        #expect(value == nil)
        let error = try #require(reported.errors.first)
        #expect(error.code == .dataCorrupted)
        #expect(error.key == "name")
        #expect(error.description == "Setting 'name' in environment variable APP_NAME: the value is not valid UTF-8.")
        #expect(store.value(forKey: "theme") == .string("dark"))
    }

    @Test func aVariableWhoseNameIsNotUTF8IsLeftOut() {
        let raw: [[UInt8]] = [Array("APP_".utf8) + [0xFF] + Array("=x".utf8), Array("APP_THEME=dark".utf8), Array("NOEQUALS".utf8)]
        let store = EnvironmentStore(prefix: "APP", rawEnvironment: raw)
        #expect(store.keys() == ["theme"])
    }
}
