import Foundation
import Testing

/// What daybook says about environment files, duplicate keys and a bad fleet address, each in
/// real daybook processes from a fresh `XDG_CONFIG_HOME`.
@Suite(.timeLimit(.hangGuard))
struct DaybookInputWarningTests {
    @Test func aFileVariableOfASettingThatIsNotSecretIsNotCalledASecretFile() throws {
        let sandbox = try DaybookTests.Sandbox()
        let missing = sandbox.folder.appendingPathComponent("format").path
        let run = try sandbox.run("config", "get", "format", environment: ["DAYBOOK_FORMAT_FILE": missing])
        #expect(
            run.error
                == "daybook: Setting 'format' in file ~/format (environment variable DAYBOOK_FORMAT_FILE): cannot open the file: No such file or directory.\n"
        )
    }

    @Test func anEmptySecretFileCountsAsUnsetWithAWarning() throws {
        let sandbox = try DaybookTests.Sandbox()
        let secret = sandbox.folder.appendingPathComponent("token")
        try Data().write(to: secret)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
        let run = try sandbox.run("config", "get", "token", environment: ["DAYBOOK_TOKEN_FILE": secret.path])
        #expect(run.status == 1)
        #expect(
            run.error
                == "daybook: warning: Setting 'token' in file ~/token (environment variable DAYBOOK_TOKEN_FILE): the secret file is empty, so the setting counts as unset.\n"
                + "daybook config: token is not set\n")
    }

    @Test func aKeyTwiceInTheSettingsFileWarnsNamingTheKeyAndBothLines() throws {
        let sandbox = try DaybookTests.Sandbox()
        try FileManager.default.createDirectory(
            at: sandbox.settingsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\n  \"pageSize\": 3,\n  \"format\": \"plain\",\n  \"pageSize\": 4\n}\n".utf8).write(
            to: sandbox.settingsFile)
        let run = try sandbox.run("config", "get", "pageSize")
        #expect(run.status == 0)
        #expect(run.output == "4\n")
        #expect(
            run.error
                == "daybook: warning: Setting 'pageSize' in file ~/config/daybook/settings.json: the key is given twice, on lines 2 and 4; the later value is used.\n"
        )
    }

    @Test func aFieldTwiceInAnObjectOfTheSettingsFileWarnsNamingItsPath() throws {
        let sandbox = try DaybookTests.Sandbox()
        try FileManager.default.createDirectory(
            at: sandbox.settingsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"layout": {"indent": 2, "wrapColumn": 60, "indent": 4}}"#.utf8).write(to: sandbox.settingsFile)
        let run = try sandbox.run("config", "get", "layout")
        #expect(run.output == "{\"indent\":4,\"wrapColumn\":60}\n")
        #expect(
            run.error
                == "daybook: warning: Setting 'layout' in file ~/config/daybook/settings.json: the key 'layout.indent' is given twice, on line 1; the later value is used.\n"
        )
    }

    @Test func aBadEtcdAddressInTheEnvironmentIsADataError() throws {
        let sandbox = try DaybookTests.Sandbox()
        let run = try sandbox.run("config", "list", environment: ["DAYBOOK_ETCD": "bogus"])
        #expect(run.status == 65)
        #expect(run.output == "")
        #expect(run.error.hasPrefix("daybook: environment variable DAYBOOK_ETCD: "), "\(run.error)")
    }
}
