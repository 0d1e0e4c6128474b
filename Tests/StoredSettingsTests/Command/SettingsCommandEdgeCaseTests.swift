import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// Hostile input for the `config` subcommand.
@Suite(.timeLimit(TestScale.hangGuard))
struct SettingsCommandEdgeCaseTests {
    struct BadSet: Sendable, CustomTestStringConvertible {
        var key: String
        var text: String
        var message: String
        var testDescription: String { "\(key) \(text)" }
    }

    @Test(arguments: [
        BadSet(
            key: "enabled", text: "maybe",
            message: #"enabled expects a Bool (true or false; also yes/no, on/off, 1/0), got "maybe""#),
        BadSet(
            key: "enabled", text: "",
            message: #"enabled expects a Bool (true or false; also yes/no, on/off, 1/0), got """#),
        BadSet(key: "count", text: "1.5", message: #"count expects an Int (a whole number), got "1.5""#),
        BadSet(
            key: "count", text: "99999999999999999999",
            message: #"count expects an Int (a whole number), got "99999999999999999999""#),
        BadSet(key: "count", text: "0x10", message: #"count expects an Int (a whole number), got "0x10""#),
        BadSet(key: "tags", text: #"["a","#, message: #"tags expects a [String] (a JSON array), got "[\"a\",""#),
        BadSet(
            key: "tags", text: "[1,2]",
            message: #"tags expects a [String] (a JSON array), got "[1,2]": at '0': expected String, found int"#),
        BadSet(
            key: "frame", text: #"{"width":1}"#,
            message:
                #"frame expects a HostileFrame (a JSON object), got "{\"width\":1}": at 'height': expected Int, found nothing: the field is missing"#
        ),
        BadSet(key: "frame", text: "{bad", message: #"frame expects a HostileFrame (a JSON object), got "{bad""#),
    ])
    func anInvalidSetFailsWithAClearMessageAndWritesNothing(_ bad: BadSet) throws {
        let tool = try HostileTool()
        try tool.file.setValue(.int(7), forKey: "count")
        let before = tool.fileBytes
        let run = tool.run("set", bad.key, bad.text)
        #expect(run.status == SettingsCommand.ExitCode.dataError)
        #expect(run.output == "")
        #expect(run.error == "hostile config: \(bad.message)\n")
        #expect(tool.fileBytes == before)
    }

    @Test(arguments: ["-h", "--help"])
    func setStoresAValueThatLooksLikeAHelpOption(_ text: String) throws {
        let tool = try HostileTool()
        let run = tool.run("set", "title", text)
        #expect(run.status == 0)
        #expect(run.output == "")
        #expect(tool.settings.title == text)
    }

    @Test func setWithHelpAloneStillPrintsHelp() throws {
        let tool = try HostileTool()
        for arguments in [["set", "--help"], ["list", "--help"], ["get", "-h"], ["help"]] {
            var output = ""
            var error = ""
            let status = SettingsCommand(tool.settings, toolName: "hostile").run(
                arguments: arguments, output: &output, error: &error)
            #expect(status == 0, "\(arguments)")
            #expect(output.hasPrefix("OVERVIEW:"), "\(arguments)")
        }
    }

    @Test func unknownKeysFailWithExitOneEverywhere() throws {
        let tool = try HostileTool()
        for run in [
            tool.run("get", "nope"), tool.run("set", "nope", "1"), tool.run("unset", "nope"),
            tool.run("reset", "count", "nope"),
        ] {
            #expect(run.status == SettingsCommand.ExitCode.notFound)
            #expect(run.error == "hostile config: no setting 'nope'; 'hostile config list' shows them all\n")
        }
        #expect(tool.fileBytes == nil)
    }

    @Test func unsetOfAnUnsetKeyExitsFiveAndWritesNothing() throws {
        let tool = try HostileTool()
        let run = tool.run("unset", "count")
        #expect(run.status == 5)
        #expect(run.error.contains("count is not set"), "\(run.error)")
        #expect(tool.fileBytes == nil)
    }

    @Test func jsonListIsValidJSONWithOriginsAndNoSecret() throws {
        let secret = "s3cr3t-✓-value"
        let tool = try HostileTool(
            environment: ["HOSTILE_TOKEN": secret, "HOSTILE_COUNT": "lots"], arguments: ["--title", "日本語"])
        try tool.file.setValue(.array([.string("a")]), forKey: "tags")
        let run = tool.run("list", "--json", "--show-origin")
        #expect(run.status == SettingsCommand.ExitCode.dataError) // count does not decode
        let parsed = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]]
        let items = try #require(parsed)
        #expect(items.count == 6)
        let byKey = Dictionary(uniqueKeysWithValues: items.map { ($0["key"] as? String ?? "", $0) })
        #expect(byKey["title"]?["origin"] as? String == "--title on the command line")
        #expect(byKey["title"]?["value"] as? String == "日本語")
        #expect(byKey["count"]?["origin"] as? String == "environment variable HOSTILE_COUNT")
        #expect(byKey["count"]?["value"] == nil)
        #expect(byKey["count"]?["problem"] as? String != nil)
        #expect(byKey["tags"]?["origin"] as? String == "file " + abbreviated(tool.file.url.path))
        #expect(byKey["token"]?["value"] as? String == "<redacted>")
        #expect(byKey["token"]?["secret"] as? Bool == true)
        #expect(!run.output.contains(secret) && !run.error.contains(secret))
    }

    @Test func aSecretIsNeverPrintedByAnySubcommand() throws {
        let secret = "hunter2-🔑"
        let tool = try HostileTool(arguments: ["--set", "token=\(secret)"])
        var everything = ""
        for arguments in [
            ["list"], ["list", "--show-origin"], ["list", "--json"], ["get", "token"], ["set", "token", secret],
            ["set", "token", "[\(secret)"], ["unset", "token"], ["reset", "--all"], ["--help"], ["get", secret],
            ["set", secret, secret],
        ] {
            var output = ""
            var error = ""
            _ = SettingsCommand(tool.settings, toolName: "hostile").run(
                arguments: arguments, output: &output, error: &error)
            everything += output + error
        }
        #expect(!everything.replacingOccurrences(of: "no setting '\(secret)'", with: "").contains(secret))
        var output = ""
        var error = ""
        _ = SettingsCommand(tool.settings, toolName: "hostile").run(
            arguments: ["get", "token", "--show-secret"], output: &output, error: &error)
        #expect(output == secret + "\n")
    }

    @Test func tableColumnsAlignWithWideCharactersAndEmoji() throws {
        let tool = try HostileTool(arguments: ["--title", "日本語のタイトル🎉", "--set", #"tags=["👨‍👩‍👧","é"]"#])
        let run = tool.run("list", "--show-origin")
        #expect(run.status == 0)
        let lines = run.output.split(separator: "\n").map(String.init)
        let originColumns = lines.map(TerminalWidth.columnsBefore(lastColumnOf:))
        #expect(Set(originColumns).count == 1, "\(run.output)")
    }

    @Test(arguments: [
        ("abc", 3), ("", 0), ("日本語", 6), ("ｶﾀ", 2), ("Ｆ", 2), ("한국", 4), ("🎉", 2), ("❤️", 2), ("👨‍👩‍👧", 2),
        ("e\u{301}", 1), ("\u{301}", 0), ("\u{200B}", 0), ("a🎉b", 4),
    ])
    func measuresTerminalColumns(_ text: String, _ columns: Int) {
        #expect(SettingsCommand.terminalWidth(of: text) == columns)
    }

    @Test func getReadsTheEffectiveValueInTheDeclaredForm() throws {
        let tool = try HostileTool(environment: ["HOSTILE_ENABLED": "YES", "HOSTILE_COUNT": "+5"])
        #expect(tool.run("get", "enabled").output == "true\n")
        let count = tool.run("get", "count")
        #expect(count.status == 0 && count.output == "5\n", "\(count)")
    }
}

/// The display columns in front of a table line's last column (two spaces before it).
enum TerminalWidth {
    static func columnsBefore(lastColumnOf line: String) -> Int {
        guard let range = line.range(of: "  ", options: .backwards) else { return 0 }
        var end = range.upperBound
        while end < line.endIndex, line[end] == " " { end = line.index(after: end) }
        return width(of: line[..<end])
    }

    /// Columns a terminal uses: 2 for wide and emoji clusters, 0 for combining marks.
    static func width(of text: Substring) -> Int {
        text.reduce(0) { total, character in
            let scalars = character.unicodeScalars
            if scalars.contains(where: {
                $0.properties.isEmojiPresentation || (0x1100...0x115F).contains($0.value)
                    || (0x2E80...0xA4CF).contains($0.value) || (0xAC00...0xD7A3).contains($0.value)
                    || (0xF900...0xFAFF).contains($0.value) || (0xFF00...0xFF60).contains($0.value)
            }) {
                return total + 2
            }
            return total + 1
        }
    }
}

/// `path` with the home folder as `~`, as origins write it.
func abbreviated(_ path: String) -> String {
    guard let home = ProcessInfo.processInfo.environment["HOME"], home.hasPrefix("/"), home != "/" else { return path }
    let folder = home.hasSuffix("/") ? String(home.dropLast()) : home
    return path.hasPrefix(folder + "/") ? "~" + path.dropFirst(folder.count) : path
}
