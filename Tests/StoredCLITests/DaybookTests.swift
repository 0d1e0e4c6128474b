import Foundation
import Testing

/// End-to-end runs of the built `daybook` example, each with its own configuration folder.
@Suite(.timeLimit(.hangGuard))
struct DaybookTests {
    /// What one run printed and returned.
    struct Run {
        var status: Int32
        var output: String
        var error: String
    }

    /// A fresh `XDG_CONFIG_HOME` and `XDG_DATA_HOME` for one test, removed afterwards.
    final class Sandbox: Sendable {
        let folder: URL

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "daybook-test-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        var settingsFile: URL {
            folder.appendingPathComponent("config/daybook/settings.json")
        }

        func run(_ arguments: String..., environment extra: [String: String] = [:]) throws -> Run {
            try run(arguments, environment: extra)
        }

        func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Run {
            let process = try self.process(arguments, environment: extra)
            let output = Pipe()
            let error = Pipe()
            process.standardOutput = output
            process.standardError = error
            try process.run()
            let outputData = output.fileHandleForReading.readDataToEndOfFile()
            let errorData = error.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(
                status: process.terminationStatus,
                output: String(decoding: outputData, as: UTF8.self),
                error: String(decoding: errorData, as: UTF8.self)
            )
        }

        /// A daybook process for this sandbox, not started yet.
        func process(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Process {
            let executable = try DaybookTests.executable()
            let process = Process()
            process.executableURL = executable
            process.arguments = arguments
            var environment = [
                "XDG_CONFIG_HOME": folder.appendingPathComponent("config").path,
                "XDG_DATA_HOME": folder.appendingPathComponent("data").path,
                "HOME": folder.path,
                "PATH": "/usr/bin:/bin",
            ]
            environment.merge(extra) { $1 }
            process.environment = environment
            return process
        }
    }

    /// The `daybook` binary in the build products folder, next to the test bundle.
    static func executable() throws -> URL {
        var candidates: [URL] = []
        let bundle = Bundle.main.bundleURL
        candidates.append(bundle.appendingPathComponent("daybook"))
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("daybook"))
        for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("daybook"))
        }
        if let first = CommandLine.arguments.first {
            candidates.append(URL(fileURLWithPath: first).deletingLastPathComponent().appendingPathComponent("daybook"))
        }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            struct Missing: Error, CustomStringConvertible {
                var description: String
            }
            throw Missing(
                description:
                    "The daybook executable is not built; looked in \(candidates.map(\.path)). Run 'swift build' first."
            )
        }
        return found
    }

    @Test func launchCountGrowsAcrossRuns() throws {
        let sandbox = try Sandbox()
        let first = try sandbox.run()
        #expect(first.status == 0)
        #expect(first.error == "")
        #expect(first.output.hasPrefix("daybook has been launched 1 time.\n"))
        _ = try sandbox.run("status")
        let third = try sandbox.run()
        #expect(third.output.hasPrefix("daybook has been launched 3 times.\n"))
        let json = try String(contentsOf: sandbox.settingsFile, encoding: .utf8)
        #expect(json == "{\n  \"launchCount\": 3\n}\n")
        #expect(try sandbox.run("config", "get", "launchCount").output == "3\n")
    }

    @Test func printsTheSettings() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run()
        #expect(
            run.output == """
                daybook has been launched 1 time.
                showDates = true
                pageSize = 10
                format = plain
                lastEntry = never
                layout = wrap at 72, indent 2

                """)
    }

    @Test func optionsOverrideTheEnvironmentWhichOverridesTheFile() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run("config", "set", "pageSize", "5").status == 0)
        #expect(try sandbox.run().output.contains("pageSize = 5\n"))
        #expect(try sandbox.run(environment: ["DAYBOOK_PAGE_SIZE": "3"]).output.contains("pageSize = 3\n"))
        #expect(try sandbox.run("--page-size", "7").output.contains("pageSize = 7\n"))
        let overridden = try sandbox.run("--page-size", "7", environment: ["DAYBOOK_PAGE_SIZE": "3"])
        #expect(overridden.output.contains("pageSize = 7\n"))
        let note = try sandbox.run("config", "set", "pageSize", "6", environment: ["DAYBOOK_PAGE_SIZE": "3"])
        #expect(note.status == 0)
        #expect(
            note.error == "daybook config: note: pageSize is overridden by environment variable DAYBOOK_PAGE_SIZE\n")
    }

    @Test func configListShowsOrigins() throws {
        let sandbox = try Sandbox()
        _ = try sandbox.run()
        #expect(try sandbox.run("config", "set", "format", "markdown").status == 0)
        #expect(try sandbox.run("config", "set", "layout", #"{"wrapColumn": 60, "indent": 4}"#).status == 0)
        let run = try sandbox.run(
            "--no-show-dates", "config", "list", "--show-origin",
            environment: ["DAYBOOK_PAGE_SIZE": "3"]
        )
        #expect(run.status == 0)
        #expect(run.error == "")
        // HOME is the sandbox, so the file is shown under `~`.
        #expect(
            run.output == """
                KEY          TYPE         VALUE                         ORIGIN
                showDates    Bool         false                         --no-show-dates on the command line
                pageSize     Int          3                             environment variable DAYBOOK_PAGE_SIZE
                format       EntryFormat  markdown                      file ~/config/daybook/settings.json
                lastEntry    Date?        (not set)                     default
                layout       Layout       {"indent":4,"wrapColumn":60}  file ~/config/daybook/settings.json
                launchCount  Int          1                             file ~/config/daybook/settings.json
                tags         [String]     []                            default
                token        String?      (not set)                     default

                """)
    }

    @Test func rejectsABadValueWithoutWriting() throws {
        let sandbox = try Sandbox()
        let run = try sandbox.run("config", "set", "showDates", "maybe")
        #expect(run.status == 65)
        #expect(
            run.error
                == "daybook config: showDates expects a Bool (true or false; also yes/no, on/off, 1/0), got \"maybe\"\n"
        )
        #expect(!FileManager.default.fileExists(atPath: sandbox.settingsFile.path))
        let malformed = try sandbox.run(environment: ["DAYBOOK_PAGE_SIZE": "lots"])
        #expect(malformed.status == 65)
        #expect(malformed.output.isEmpty)
        #expect(
            malformed.error
                == "daybook: Setting 'pageSize' in environment variable DAYBOOK_PAGE_SIZE: expected Int (a whole number), found string \"lots\".\n"
        )
        let option = try sandbox.run("--page-size", "x", "show")
        #expect(option.status == 64)
        #expect(
            option.error
                == "daybook: Setting 'pageSize' in --page-size on the command line: expected Int (a whole number), found string \"x\".\n"
        )
        let usage = try sandbox.run("--set", "pageSize")
        #expect(usage.status == 64)
    }

    @Test func writesAndShowsEntriesWithTheSettings() throws {
        let sandbox = try Sandbox()
        #expect(try sandbox.run("write", "Planted", "the", "tomatoes.").status == 0)
        #expect(try sandbox.run("write", "Watered them.").status == 0)
        #expect(try sandbox.run("config", "get", "lastEntry").status == 0)
        let markdown = try sandbox.run("--format", "markdown", "--no-show-dates", "--page-size", "1", "show")
        #expect(markdown.output == "- Watered them.\n")
        let plain = try sandbox.run("show", environment: ["DAYBOOK_SHOW_DATES": "no"])
        #expect(plain.output == "  Planted the tomatoes.\n  Watered them.\n")
    }
}
