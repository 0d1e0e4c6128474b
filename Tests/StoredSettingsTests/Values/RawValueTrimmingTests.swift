import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

private enum Shade: String, StoredValueConvertible, CaseIterable {
    case light, dark
    case padded = " padded "
}

private enum Level: Int, StoredValueConvertible {
    case low = 1
    case high = 3
}

private struct ShadeSettings: SettingsGroup {
    @Stored("shade", default: .light)
    var shade: Shade
    @Stored("level", default: .low)
    var level: Level
}

/// A raw value arrives trimmed of white space, as numbers and Booleans do, from every layer:
/// an exact raw value still wins.
struct RawValueTrimmingTests {
    @Test(arguments: [" dark", "dark\n", "\t dark \r\n"])
    func textAroundARawValueIsTrimmed(_ text: String) throws {
        #expect(try Shade(storedValue: .string(text)) == .dark)
    }

    @Test func anExactRawValueWithSpacesIsStillThatValue() throws {
        #expect(try Shade(storedValue: .string(" padded ")) == .padded)
    }

    @Test func anEnvironmentVariableWithSpacesReadsAsTheCase() throws {
        let environment = EnvironmentStore(prefix: "APP", environment: ["APP_SHADE": " dark", "APP_LEVEL": "3 "])
        let settings = ShadeSettings(store: environment)
        #expect(try settings.$shade.load() == .dark)
        #expect(try settings.$level.load() == .high)
    }

    @Test func textThatIsNoRawValueIsStillATypeMismatch() throws {
        let error = try #require(throws: StorageError.self) { try Shade(storedValue: .string(" purple ")) }
        #expect(error.code == .typeMismatch)
    }
}
