import Foundation
import Testing

/// A default settings file that does not parse never turns the default store into memory:
/// every write fails and is reported naming the file, the line and the key; reads return
/// defaults; the file stays as it is. Run in a child process, whose configuration folder is a
/// temporary one (the default store is named after the executable and read from
/// `$XDG_CONFIG_HOME`).
@Suite(.timeLimit(TestScale.hangGuard))
struct BrokenDefaultFileTests {
    @Test(.timeLimit(TestScale.hangGuard))
    func everyWriteToABrokenDefaultFileFailsNamingFileLineAndKeyAndTheFileStays() async throws {
        let folder = try ScratchFolder()
        let settingsFolder = folder.url.appendingPathComponent("stored-test-helper")
        try FileManager.default.createDirectory(at: settingsFolder, withIntermediateDirectories: true)
        let file = settingsFolder.appendingPathComponent("settings.json")
        let broken = Data("{\n  \"theme\": \"dark\",\n  \"count\": 3,\n}\n".utf8)
        try broken.write(to: file)

        let output = try await ChildProcess.run(
            ["default-store-set", "count", "99"],
            environment: ["XDG_CONFIG_HOME": folder.path, "HOME": folder.path]
        )
        let lines = output.split(separator: "\n").map(String.init)
        let reports = lines.filter { $0.hasPrefix("reported ") }
        // Opening says the file is broken and that nothing will be saved.
        let opening = try #require(reports.first)
        #expect(opening.contains(file.path))
        #expect(opening.contains("line 4"))
        #expect(opening.contains("not be saved"))
        // The setter's write is refused, naming the key, the file and the line.
        let write = try #require(reports.dropFirst().first)
        #expect(write.contains("'count'"))
        #expect(write.contains(file.path))
        #expect(write.contains("line 4"))
        #expect(write.contains("the change to 'count' was not saved"))
        #expect(lines.filter { $0.hasPrefix("read ") } == ["read 0", "read 0"])
        let save = try #require(lines.first { $0.hasPrefix("save ") })
        #expect(save.hasPrefix("save error dataCorrupted "))
        #expect(try Data(contentsOf: file) == broken)
    }
}
