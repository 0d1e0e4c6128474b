import Foundation
import Testing

/// Hostile runs of the built `daybook`: broken files, odd arguments, parallel launches.
@Suite(.timeLimit(.hangGuard))
struct DaybookEdgeCaseTests {
    typealias Sandbox = DaybookTests.Sandbox

    @Test func aCorruptSettingsFileFailsWithOneLineAndExit65AndIsLeftAsItWas() throws {
        let sandbox = try Sandbox()
        let broken = Data(#"{"pageSize": 3,"#.utf8)
        try FileManager.default.createDirectory(
            at: sandbox.settingsFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try broken.write(to: sandbox.settingsFile)
        for arguments in [["status"], ["config", "list"], ["config", "set", "pageSize", "4"], ["write", "x"]] {
            let run = try sandbox.run(arguments)
            #expect(run.status == 65, "\(arguments)")
            #expect(run.output == "", "\(arguments)")
            #expect(run.error.hasPrefix(arguments[0] == "config" ? "daybook config: " : "daybook: "), "\(arguments)")
            #expect(run.error.contains(sandbox.settingsFile.path), "\(arguments)")
            #expect(run.error.filter { $0 == "\n" }.count == 1, "\(arguments): \(run.error)")
        }
        #expect(try Data(contentsOf: sandbox.settingsFile) == broken)
    }

    @Test func aSettingsFileThatIsAFolderFailsWithOneLineAndExit74() throws {
        let sandbox = try Sandbox()
        try FileManager.default.createDirectory(at: sandbox.settingsFile, withIntermediateDirectories: true)
        let run = try sandbox.run("status")
        #expect(run.status == 74)
        #expect(run.error.hasPrefix("daybook: "))
        #expect(run.error.filter { $0 == "\n" }.count == 1, "\(run.error)")
    }

    @Test func anUnwritableConfigFolderFailsTheWriteWithExit74() throws {
        let sandbox = try Sandbox()
        // A file where the folder should be: no write can succeed, even for root.
        let folder = sandbox.settingsFile.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("in the way".utf8).write(to: folder)
        let run = try sandbox.run("config", "set", "pageSize", "4")
        #expect(run.status == 74)
        #expect(run.error.hasPrefix("daybook config: "))
        #expect(try Data(contentsOf: folder) == Data("in the way".utf8))
    }

    @Test func aHugeWrapColumnOrIndentDoesNotCrashShow() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run("write", "an entry with several words").status == 0)
        for layout in [
            #"{"wrapColumn":-9223372036854775808,"indent":2}"#,
            #"{"wrapColumn":9223372036854775807,"indent":-9223372036854775808}"#,
            #"{"wrapColumn":0,"indent":9223372036854775807}"#,
        ] {
            let run = try sandbox.run("--set", "layout=\(layout)", "--page-size", "-9223372036854775808", "show")
            #expect(run.status == 0, "\(layout): \(run.error)")
            let shown = try sandbox.run("--set", "layout=\(layout)", "show")
            #expect(shown.status == 0, "\(layout): \(shown.error)")
            #expect(shown.output.contains("several"), "\(layout)")
        }
    }

    @Test func aDoubleDashEndsTheOptionsAndIsNotPartOfTheEntry() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run("write", "--", "--page-size", "is", "text").status == 0)
        #expect(try sandbox.run("--", "write", "second").status == 0)
        let shown = try sandbox.run("--no-show-dates", "show")
        #expect(shown.output == "  --page-size is text\n  second\n")
    }

    @Test(arguments: [
        ["--help"], ["-h"], ["help"], ["write", "--help"], ["show", "-h"], ["--page-size", "3", "status", "--help"],
    ])
    func helpAfterAnyCommandPrintsHelpWithoutWritingOrCounting(_ arguments: [String]) throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run(arguments)
        #expect(run.status == 0)
        #expect(run.output.hasPrefix("OVERVIEW: A tiny journal for the terminal."))
        #expect(try sandbox.run("config", "get", "launchCount").output == "0\n")
        #expect(try sandbox.run("--no-show-dates", "show").output == "")
    }

    @Test func helpAfterADoubleDashIsText() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run("write", "--", "--help").status == 0)
        #expect(try sandbox.run("--no-show-dates", "show").output == "  --help\n")
    }

    @Test func unknownCommandsAndOptionsFailWithoutCountingALaunch() throws {
        let sandbox = try Sandbox()
        let command = try sandbox.run("fly")
        #expect(command.status == 64)
        #expect(command.error == "daybook: unknown command 'fly'. See 'daybook --help'.\n")
        let option = try sandbox.run("--bogus")
        #expect(option.status == 64)
        #expect(option.error == "daybook: unknown option '--bogus'. See 'daybook --help'.\n")
        let extra = try sandbox.run("status", "now")
        #expect(extra.status == 64)
        #expect(extra.error == "daybook: status takes no arguments, got 'now'. See 'daybook --help'.\n")
        #expect(try sandbox.run("write").status == 64)
        #expect(try sandbox.run("config", "get", "launchCount").output == "0\n")
    }

    @Test func aMisspelledSetKeyIsAUsageErrorNotIgnored() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run("--set", "page-size=3", "status")
        #expect(run.status == 64)
        #expect(
            run.error
                == "daybook: Setting 'page-size' in --set on the command line: no declared setting uses this key; it is spelled 'pageSize'.\n"
        )
    }

    @Test func optionsAfterTheConfigSubcommandStillApply() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run("config", "get", "pageSize", "--page-size", "3")
        #expect(run.output == "3\n")
        let list = try sandbox.run("config", "list", "--show-origin", "--page-size=4")
        #expect(list.output.contains("pageSize     Int          4"))
        #expect(list.output.contains("--page-size on the command line"))
    }

    @Test func aMalformedEnvironmentValueStopsTheRunAndIsNeverMaskedByTheFile() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run("config", "set", "pageSize", "7").status == 0)
        let run = try sandbox.run("status", environment: ["DAYBOOK_PAGE_SIZE": "seven"])
        #expect(run.status == 65)
        #expect(!run.output.contains("pageSize = 7")) // the file's value does not mask the mistake
        #expect(run.error.contains("environment variable DAYBOOK_PAGE_SIZE"))
        let list = try sandbox.run("config", "list", "--show-origin", environment: ["DAYBOOK_PAGE_SIZE": "seven"])
        #expect(list.output.contains("environment variable DAYBOOK_PAGE_SIZE"))
        let get = try sandbox.run("config", "get", "pageSize", environment: ["DAYBOOK_PAGE_SIZE": "seven"])
        #expect(get.status == 65)
    }

    @Test func parallelLaunchesCountEveryLaunch() throws {
        let sandbox = try Sandbox()
        let runs = 8
        // All started before any is waited for, so they really overlap.
        let processes = try (0..<runs).map { _ in try sandbox.process(["status"]) }
        for process in processes {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        #expect(try sandbox.run("config", "get", "launchCount").output == "\(runs)\n")
    }

    @Test func runsWithoutHomeWhenTheConfigFolderIsGiven() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run("config", "path", environment: ["HOME": ""])
        #expect(run.status == 0)
        #expect(run.output == sandbox.settingsFile.path + "\n")
    }
}
