import Foundation
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// The process's environment read from `environ` is the dictionary Foundation gives.
@Suite(.timeLimit(TestScale.hangGuard))
struct ProcessVariablesTests {
    @Test func processVariablesAreTheEnvironmentFoundationReads() {
        #expect(EnvironmentStore.processVariables() == ProcessInfo.processInfo.environment)
        #expect(!EnvironmentStore.processVariables().isEmpty)
    }

    /// A read for one prefix decodes only the entries that start with it, and gives each
    /// variable with the prefix as the whole read does.
    @Test(arguments: ["PATH", "HOME", "P", "X", "NO_SUCH_PREFIX_", ""])
    func aPrefixesReadHoldsItsVariablesAsTheWholeReadDoes(prefix: String) {
        let whole = EnvironmentStore.processVariables()
        let read = EnvironmentStore.processVariables(withPrefix: prefix)
        #expect(read == whole.filter { $0.key.hasPrefix(prefix) })
    }

    #if os(Linux)
    /// Entries no shell makes, in a child process's raw environment: repeated names, no `=`,
    /// an empty name, bytes that are not UTF-8, combining marks or prepended characters next
    /// to the `=`, which Foundation's split by Character joins to it, and a KELVIN SIGN that
    /// `String` takes for `K`. (Linux: the rules are those of Foundation there.)
    @Test func oddEntriesAreReadAsFoundationReadsThem() throws {
        let entries: [[UInt8]] =
            [
                "A=1", "A=2", "NOEQUALS", "=empty", "B==c", "C=", "D=\u{301}x", "E=\u{301}=y", "F\u{600}=x",
                "G\u{600}=x=z", "H=x\u{200D}=y", "I=\u{1F1E9}\u{1F1EA}", "\u{212A}IT=kelvin",
            ].map { Array($0.utf8) } + [Array("J=".utf8) + [0xFF, 0x41], [0xFE, 0x42] + Array("=v".utf8)]
        let lines = try EnvironmentEncodingProcessTests.run(["process-variables"], environment: entries)
        #expect(lines == ["same true"])
    }
    #endif
}
