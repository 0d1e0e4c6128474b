import Foundation
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// `config check [FILE]`: a settings file read as the tool reads it, every problem named with
/// its setting, line and column, and nothing written.
@Suite(.timeLimit(TestScale.hangGuard))
struct SettingsCommandCheckTests {
    /// A tool whose settings file is `settings.json` in a fresh folder, holding `text`.
    struct Tool {
        let folder: ScratchFolder
        let url: URL
        let command: SettingsCommand

        init(file text: String?, name: String = "settings.json") throws {
            folder = try ScratchFolder()
            url = folder.file(name)
            if let text { try Data(text.utf8).write(to: url) }
            let store = try FileStore(url: url, options: quietOptions)
            command = SettingsCommand(ToolSettings(store: store), toolName: "tool")
        }

        func run(_ arguments: String...) -> CommandRun {
            var output = ""
            var error = ""
            let status = command.run(arguments: ["check"] + arguments, output: &output, error: &error)
            return CommandRun(status: status, output: output, error: error)
        }
    }

    @Test func namesEveryProblemWithItsSettingLineAndColumnAndWritesNothing() throws {
        let text = """
            {
              "pageSize": "ten",
              "autoReload": true,
              "theme": "purple",
              "autoReload": false,
              "pageSzie": 3
            }
            """
        let tool = try Tool(file: text)
        let before = try tool.folder.names()
        let run = tool.run()
        #expect(run.status == .dataError)
        #expect(run.output == "")
        let path = tool.url.path
        #expect(
            run.error == """
                tool config: warning: Setting 'pageSzie' in file \(path), line 6, column 15: no declared setting uses this key (did you mean 'pageSize'?).
                tool config: Setting 'autoReload' in file \(path), line 5, column 3: the key is given twice, on lines 3 and 5; the later value is used.
                tool config: Setting 'pageSize' in file \(path), line 2, column 15: expected Int (a whole number), found string "ten".
                tool config: Setting 'theme' in file \(path), line 4, column 12: expected ToolTheme (one of: system, light, dark), found string "purple": the value is not one of its raw values.

                """)
        #expect(try String(contentsOf: tool.url, encoding: .utf8) == text)
        #expect(try tool.folder.names() == before)
    }

    @Test func namesTheLineAndColumnWhereAFileStopsParsing() throws {
        let tool = try Tool(file: #"{"pageSize": 3}"#)
        try Data("{\n  \"pageSize\": 3,\n  \"theme\": light\n}\n".utf8).write(to: tool.url)
        let run = tool.run()
        #expect(run.status == .dataError)
        #expect(run.error.contains("line 3, column 12"), "\(run.error)")
        #expect(run.error.contains("theme"), "\(run.error)")
        #expect(run.error.hasPrefix("tool config: "))
    }

    @Test func refusesNestingDeeperThanTheReaderAllows() throws {
        let deep = String(repeating: "[", count: 64) + "1" + String(repeating: "]", count: 64)
        let tool = try Tool(file: nil)
        let other = tool.folder.file("deploy.json")
        try Data(#"{"otherTool": \#(deep)}"#.utf8).write(to: other)
        let run = tool.run(other.path)
        #expect(run.status == .dataError)
        #expect(run.error.contains("nesting deeper than 64 levels"), "\(run.error)")
    }

    @Test func passesAFileThatReadsAsDeclared() throws {
        let tool = try Tool(file: #"{"pageSize": 30, "theme": "dark", "tags": ["a"]}"#)
        let run = tool.run()
        #expect(run.status == .success)
        #expect(run.error == "")
        #expect(run.output == "\(tool.url.path): every setting reads as declared\n")
    }

    @Test func checksTheFileItIsGivenNotTheToolsOwn() throws {
        let tool = try Tool(file: #"{"pageSize": 30}"#)
        let other = tool.folder.file("deploy.json")
        try Data(#"{"pageSize": 1.5}"#.utf8).write(to: other)
        let run = tool.run(other.path)
        #expect(run.status == .dataError)
        #expect(run.error.contains("Setting 'pageSize' in file \(other.path), line 1, column 14: expected Int"))
        #expect(tool.run().status == .success)
    }

    @Test func aMissingFileGivenIsNoInputAndAMissingOwnFileMeansDefaults() throws {
        let tool = try Tool(file: nil)
        let missing = tool.run(tool.folder.file("absent.json").path)
        #expect(missing.status == .noInput)
        #expect(missing.error == "tool config: \(tool.folder.file("absent.json").path): no such file\n")
        let own = tool.run()
        #expect(own.status == .success)
        #expect(own.output == "\(tool.url.path): no file; every setting takes its default\n")
        #expect(try tool.folder.names().isEmpty)
    }

    @Test func readsAPropertyListByItsExtension() throws {
        let tool = try Tool(file: nil)
        let plist = tool.folder.file("deploy.plist")
        let data = try PropertyListSerialization.data(
            fromPropertyList: ["pageSize": "many"], format: .xml, options: 0)
        try data.write(to: plist)
        let run = tool.run(plist.path)
        #expect(run.status == .dataError)
        #expect(
            run.error
                == "tool config: Setting 'pageSize' in file \(plist.path): expected Int (a whole number), found string \"many\".\n"
        )
    }

    @Test func aSpecialFileIsAnErrorNotAWait() throws {
        let tool = try Tool(file: nil)
        let fifo = tool.folder.file("fifo.json")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let run = tool.run(fifo.path)
        #expect(run.status == .ioError)
        #expect(run.error.contains(fifo.path))
    }

    @Test func takesAtMostOneFile() throws {
        let tool = try Tool(file: nil)
        #expect(tool.run("a.json", "b.json").status == .usage)
        #expect(tool.run("--strict").status == .usage)
    }
}
