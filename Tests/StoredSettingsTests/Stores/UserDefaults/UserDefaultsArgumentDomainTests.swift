import Foundation
import StoredSettings
import Testing

// Linux only, like UserDefaultsProcessTests (whose DefaultsSandbox these tests use).
#if !canImport(Darwin)

/// `UserDefaults`' argument domain (`-count 100` on the command line) holds values for one run:
/// reads see them, but an `update` never carries them into the suite's domain file.
@Suite(.timeLimit(TestScale.hangGuard))
struct UserDefaultsArgumentDomainTests {
    @Test(.timeLimit(TestScale.hangGuard))
    func updateBuildsOnTheStoredValueNotOnTheArgumentDomain() async throws {
        let sandbox = try DefaultsSandbox()
        _ = try await sandbox.run("set", "count", "3")
        // `-count 100` puts 100 in the argument domain of this run only.
        let during = try await sandbox.run("increment", "count", "-count", "100")
        #expect(during["ok"] != nil)
        let read = try await sandbox.run("read", "count")
        #expect(read["value"] == "4")
        #expect(read["persisted"] == "4")
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func argumentDomainStillDecidesWhatTheRunReads() async throws {
        let sandbox = try DefaultsSandbox()
        _ = try await sandbox.run("set", "count", "3")
        let read = try await sandbox.run("read", "count", "-count", "100")
        #expect(read["value"] == "100")
        #expect(read["persisted"] == "3")
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func updateOfAKeyOnlyInTheArgumentDomainStartsFromTheDefault() async throws {
        let sandbox = try DefaultsSandbox()
        _ = try await sandbox.run("increment", "count", "-count", "100")
        let read = try await sandbox.run("read", "count")
        #expect(read["value"] == "1")
        #expect(read["persisted"] == "1")
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func explicitWriteEqualToTheOverrideIsStillSaved() async throws {
        let sandbox = try DefaultsSandbox()
        _ = try await sandbox.run("set-text", "theme", "light")
        // The argument domain holds text, so an equal String write is where a comparison with
        // what reads see would skip the write.
        #expect(try await sandbox.run("set-text", "theme", "dark", "-theme", "dark")["ok"] != nil)
        #expect(try await sandbox.run("read", "theme")["persisted"] == "dark")
    }
}

#endif
