import Foundation
import Testing

/// daybook's lists, nested overrides, secret files, unknown keys and bad input, from a fresh
/// `XDG_CONFIG_HOME`, each in real daybook processes.
@Suite(.timeLimit(.hangGuard))
struct DaybookConfigurationTests {
    /// The settings file's JSON object.
    func fileObject(_ sandbox: DaybookTests.Sandbox) throws -> [String: Any] {
        let data = try Data(contentsOf: sandbox.settingsFile)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func tagsFromTheEnvironmentAreCommaSeparated() throws {
        let sandbox = try DaybookTests.Sandbox()
        let run = try sandbox.run("config", "get", "tags", environment: ["DAYBOOK_TAGS": "garden,tomatoes"])
        #expect(run.error == "")
        #expect(run.output == "[\"garden\",\"tomatoes\"]\n")
        #expect(run.status == 0)
    }

    @Test func repeatedTagOptionsJoin() throws {
        let sandbox = try DaybookTests.Sandbox()
        let run = try sandbox.run("--tags", "garden", "--tags", "tomatoes", "config", "get", "tags")
        #expect(run.error == "")
        #expect(run.output == "[\"garden\",\"tomatoes\"]\n")
    }

    @Test func oneLayoutFieldFromTheEnvironmentKeepsTheFilesOthers() throws {
        let sandbox = try DaybookTests.Sandbox()
        #expect(try sandbox.run("config", "set", "layout", #"{"wrapColumn":60,"indent":2}"#).status == 0)
        let run = try sandbox.run("config", "get", "layout", environment: ["DAYBOOK_LAYOUT_INDENT": "4"])
        #expect(run.error == "")
        #expect(run.output == "{\"indent\":4,\"wrapColumn\":60}\n")
        let note = try sandbox.run("--layout.indent", "6", "config", "set", "layout", #"{"wrapColumn":50,"indent":1}"#)
        #expect(
            note.error == "daybook config: note: layout.indent is overridden by --layout.indent on the command line\n")
        #expect(try sandbox.run("config", "set", "layout", #"{"wrapColumn":60,"indent":2}"#).status == 0)
        let option = try sandbox.run("--layout.indent", "6", "config", "get", "layout")
        #expect(option.output == "{\"indent\":6,\"wrapColumn\":60}\n")
        let list = try sandbox.run("config", "list", "--show-origin", environment: ["DAYBOOK_LAYOUT_INDENT": "4"])
        #expect(
            list.output.contains(
                "file ~/config/daybook/settings.json; indent: environment variable DAYBOOK_LAYOUT_INDENT"))
    }

    @Test func aSecretFileGivesTheTokenRedactedWithTheVariableAsItsOrigin() throws {
        let sandbox = try DaybookTests.Sandbox()
        let secret = sandbox.folder.appendingPathComponent("token")
        try Data("s3cret\n".utf8).write(to: secret)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
        let run = try sandbox.run("config", "list", "--show-origin", environment: ["DAYBOOK_TOKEN_FILE": secret.path])
        #expect(run.status == 0)
        #expect(!run.output.contains("s3cret"))
        let line = run.output.split(separator: "\n").first { $0.hasPrefix("token ") }
        #expect(line?.contains("<redacted>") == true)
        #expect(line?.contains("DAYBOOK_TOKEN_FILE") == true)
    }

    @Test func aMisspeltKeyInTheFileDrawsOneWarning() throws {
        let sandbox = try DaybookTests.Sandbox()
        #expect(try sandbox.run("config", "set", "pageSize", "4").status == 0)
        var object = try fileObject(sandbox)
        object["pageSise"] = 5
        try JSONSerialization.data(withJSONObject: object).write(to: sandbox.settingsFile)
        let warning =
            "daybook: warning: Setting 'pageSise' in file ~/config/daybook/settings.json: no declared setting uses this key (did you mean 'pageSize'?).\n"
        let list = try sandbox.run("config", "list")
        #expect(list.status == 0)
        #expect(list.error == warning)
        let status = try sandbox.run("status")
        #expect(status.status == 0)
        #expect(status.error == warning)
        let strict = try sandbox.run("--strict", "status")
        #expect(strict.status == 65)
        #expect(strict.error == warning.replacingOccurrences(of: "daybook: warning: ", with: "daybook: "))
    }

    @Test func badInputStopsTheRun() throws {
        let sandbox = try DaybookTests.Sandbox()
        let option = try sandbox.run("--page-size", "lots")
        #expect(option.status == 64)
        #expect(
            option.error
                == "daybook: Setting 'pageSize' in --page-size on the command line: expected Int (a whole number), found string \"lots\".\n"
        )
        let flag = try sandbox.run("--show-dates", "false", "show")
        #expect(flag.status == 64)
        #expect(
            flag.error
                == "daybook: Setting 'showDates' in --show-dates on the command line: --show-dates is a flag and takes no separate value 'false'; write --show-dates=false or --no-show-dates.\n"
        )
        let environment = try sandbox.run(environment: ["DAYBOOK_TAGS": "a,,b"])
        #expect(environment.status == 65)
        #expect(environment.error.contains("Setting 'tags' in environment variable DAYBOOK_TAGS"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.settingsFile.path))
    }

    @Test func oneRunValuesNeverReachTheFile() throws {
        let sandbox = try DaybookTests.Sandbox()
        #expect(try sandbox.run("config", "set", "layout", #"{"wrapColumn":60,"indent":2}"#).status == 0)
        #expect(try sandbox.run("config", "set", "tags", "garden").status == 0)
        #expect(try sandbox.run("--tags", "a", "--tags", "b", "--layout.indent", "9", "status").status == 0)
        #expect(
            try sandbox.run("write", "x", environment: ["DAYBOOK_LAYOUT_INDENT": "5", "DAYBOOK_TAGS": "c,d"]).status
                == 0)
        let object = try fileObject(sandbox)
        #expect(object["layout"] as? [String: Int] == ["wrapColumn": 60, "indent": 2])
        #expect(object["tags"] as? [String] == ["garden"])
        #expect(object["token"] == nil)
        #expect(Set(object.keys) == ["layout", "tags", "launchCount", "lastEntry"])
    }
}
