import Foundation
import Testing

/// Values daybook's help calls "for this run only" (an environment variable, `--set`) are
/// never written to its settings file: the launch count goes on from the file's value.
@Suite(.timeLimit(.hangGuard))
struct DaybookOneRunValueTests {
    /// The launch count in the sandbox's settings file, read as JSON.
    func persistedLaunchCount(_ sandbox: DaybookTests.Sandbox) throws -> Int? {
        let data = try Data(contentsOf: sandbox.settingsFile)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return object["launchCount"] as? Int
    }

    @Test(.timeLimit(.hangGuard))
    func aRunWithTheLaunchCountInTheEnvironmentCountsOnInTheFile() throws {
        let sandbox = try DaybookTests.Sandbox()
        #expect(try sandbox.run().status == 0)
        let run = try sandbox.run(environment: ["DAYBOOK_LAUNCH_COUNT": "1000"])
        #expect(run.status == 0)
        #expect(run.output.contains("launched 1000 times")) // the override is what this run reads
        #expect(try persistedLaunchCount(sandbox) == 2)
        #expect(try sandbox.run().output.contains("launched 3 times"))
    }

    @Test(.timeLimit(.hangGuard))
    func aRunWithTheLaunchCountSetOnTheCommandLineCountsOnInTheFile() throws {
        let sandbox = try DaybookTests.Sandbox()
        #expect(try sandbox.run().status == 0)
        let run = try sandbox.run("--set", "launchCount=5000")
        #expect(run.status == 0)
        #expect(run.output.contains("launched 5000 times"))
        #expect(try persistedLaunchCount(sandbox) == 2)
    }
}
