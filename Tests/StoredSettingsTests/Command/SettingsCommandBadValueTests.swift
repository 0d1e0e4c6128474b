import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// A settings group with a `Double`, for values a store cannot hold.
private struct RatioSettings: SettingsGroup {
    @Stored("ratio", default: 0.5, help: "How much.")
    var ratio: Double
}

/// `config set` of a value the settings file cannot hold (NaN and infinities in JSON) is a bad
/// value, exit status 65, with a message naming the key, the expected type and the file; the
/// file is left as it was.
@Suite(.timeLimit(TestScale.hangGuard))
struct SettingsCommandBadValueTests {
    @Test(arguments: ["nan", "inf", "-infinity"])
    func nonFiniteDoubleInAJSONFileIsABadValue(text: String) throws {
        let file = try TemporaryFileStore()
        try file.setValue(.double(0.25), forKey: "ratio")
        let before = try Data(contentsOf: file.url)
        let settings = RatioSettings(store: file)
        var output = ""
        var error = ""
        let status = SettingsCommand(settings, toolName: "tool").run(
            arguments: ["set", "ratio", text], output: &output, error: &error)
        #expect(status == SettingsCommand.ExitCode.dataError)
        #expect(output == "")
        #expect(
            error
                == "tool config: Setting 'ratio' in \(file.url.path): expected Double: JSON has no form for NaN or infinity; the change was not saved.\n"
        )
        #expect(try Data(contentsOf: file.url) == before)
        #expect(settings.ratio == 0.25)
    }

    @Test func nonFiniteDoubleInAPropertyListFileIsStored() throws {
        let file = try TemporaryFileStore(fileName: "settings.plist")
        let settings = RatioSettings(store: file)
        var output = ""
        var error = ""
        let status = SettingsCommand(settings, toolName: "tool").run(
            arguments: ["set", "ratio", "inf"], output: &output, error: &error)
        #expect(status == SettingsCommand.ExitCode.success, "\(error)")
        #expect(try file.reopened().value(forKey: "ratio") == .double(.infinity))
    }
}
