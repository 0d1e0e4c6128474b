import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `EnvironmentStore` lists only keys it can read, and a variable whose bytes are not UTF-8 is
/// reported by name instead of being read with U+FFFD in place of the bytes.
@Suite(.timeLimit(TestScale.hangGuard))
struct EnvironmentEncodingTests {
    @Test func everyListedKeyReadsItsVariable() {
        let store = EnvironmentStore(
            prefix: "APP",
            environment: [
                "APP_THEME": "dark", "APP_lower": "a", "APP_TWO__PARTS": "b", "APP_DASH-ED": "c",
                "APP_EDITOR_FONT_SIZE": "12", "APP_X9": "d",
            ])
        let keys = store.keys()
        for key in keys {
            #expect(store.value(forKey: key) != nil, "keys() lists \(key), which value(forKey:) cannot read")
        }
        #expect(Set(keys).isSuperset(of: ["theme", "editorFontSize", "x9"]))
    }

    @Test func aVariableThatIsNotUTF8IsReportedByNameAndNotListed() throws {
        let raw: [[UInt8]] = [Array("APP_NAME=caf".utf8) + [0xE9], Array("APP_THEME=dark".utf8)]
        let store = EnvironmentStore(prefix: "APP", rawEnvironment: raw)
        #expect(store.keys() == ["theme"])
        let reported = ReportedErrors()
        let value = reported.capture { store.value(forKey: "name") }
        #expect(value == nil)
        let error = try #require(reported.errors.first)
        #expect(error.code == .dataCorrupted)
        #expect(error.key == "name")
        #expect(error.description == "Setting 'name' in environment variable APP_NAME: the value is not valid UTF-8.")
        #expect(store.value(forKey: "theme") == .string("dark"))
    }

    @Test func aDeclaredSettingsVariableThatIsNotUTF8IsAnErrorAndNotReportedOnRead() throws {
        let raw: [[UInt8]] = [Array("APP_EDITOR=caf".utf8) + [0xE9], Array("APP_RETRIES=4".utf8)]
        let store = EnvironmentStore(
            prefix: "APP", rawEnvironment: raw, declarations: EnvironmentSettings.declarations())
        #expect(
            store.errors.map(\.description) == [
                "Setting 'editor' in environment variable APP_EDITOR: the value is not valid UTF-8."
            ])
        #expect(throws: StorageError.self) { try store.validate() }
        let reported = ReportedErrors()
        #expect(reported.capture { store.value(forKey: "editor") } == nil)
        #expect(reported.errors.isEmpty)
        #expect(store.value(forKey: "retries") == .string("4"))
    }

    @Test func aRepeatedNameWithTextAfterBytesThatAreNotUTF8ReadsTheTextWithoutAnError() {
        let raw: [[UInt8]] = [Array("APP_EDITOR=caf".utf8) + [0xE9], Array("APP_EDITOR=ok".utf8)]
        let store = EnvironmentStore(
            prefix: "APP", rawEnvironment: raw, declarations: EnvironmentSettings.declarations())
        #expect(store.errors.isEmpty)
        #expect(store.value(forKey: "editor") == .string("ok"))
    }

    /// A `NAME_FILE` that is not UTF-8 fails as a secret file that cannot be read: the key holds
    /// no value, even with `NAME` set, and the problem is reported once (or held in `errors`).
    @Test func aFileVariableThatIsNotUTF8LeavesTheKeyWithoutAValue() throws {
        let raw: [[UInt8]] = [Array("APP_EDITOR=vim".utf8), Array("APP_EDITOR_FILE=".utf8) + [0xFF]]
        let plain = EnvironmentStore(prefix: "APP", rawEnvironment: raw)
        let reported = ReportedErrors()
        #expect(reported.capture { plain.value(forKey: "editor") } == nil)
        #expect(reported.capture { plain.value(forKey: "editor") } == nil)
        #expect(
            reported.errors.map(\.description) == [
                "Setting 'editor' in environment variable APP_EDITOR_FILE: the value is not valid UTF-8."
            ])
        let declared = EnvironmentStore(
            prefix: "APP", rawEnvironment: raw, declarations: EnvironmentSettings.declarations())
        #expect(declared.errors.map(\.description) == reported.errors.map(\.description))
        let quiet = ReportedErrors()
        #expect(quiet.capture { declared.value(forKey: "editor") } == nil)
        #expect(quiet.errors.isEmpty)
    }

    /// A declared key's own variable that ends in `_FILE` keeps its plain meaning: it is no
    /// other key's secret file, so only its own key has the problem.
    @Test func aDeclaredVariableEndingInFILEIsNoOtherKeysSecretFile() throws {
        let raw: [[UInt8]] = [Array("APP_CONFIG_FILE=".utf8) + [0xFF]]
        let store = EnvironmentStore(
            prefix: "APP", rawEnvironment: raw, declarations: [SettingDeclaration(key: "configFile", shape: .other)])
        #expect(store.errors.map(\.key) == ["configFile"])
        let reported = ReportedErrors()
        #expect(reported.capture { store.value(forKey: "config") } == nil)
        #expect(reported.capture { store.value(forKey: "configFile") } == nil)
        #expect(reported.errors.isEmpty)
    }

    @Test func aRepeatedFieldVariableWithTextOverridesItsFieldWithoutAnError() {
        let raw: [[UInt8]] = [Array("APP_LAYOUT_INDENT=4".utf8), Array("APP_LAYOUT_INDENT=".utf8) + [0xFF]]
        let store = EnvironmentStore(
            prefix: "APP", rawEnvironment: raw, declarations: EnvironmentSettings.declarations())
        #expect(store.errors.isEmpty)
        #expect(store.fieldOverrides(forKey: "layout").map(\.path) == [["indent"]])
    }

    @Test func aVariableWhoseNameIsNotUTF8IsLeftOut() {
        let raw: [[UInt8]] = [
            Array("APP_".utf8) + [0xFF] + Array("=x".utf8), Array("APP_THEME=dark".utf8), Array("NOEQUALS".utf8),
        ]
        let store = EnvironmentStore(prefix: "APP", rawEnvironment: raw)
        #expect(store.keys() == ["theme"])
    }
}

/// The same, in a real child process whose environment holds bytes that are not UTF-8: the
/// store reads the process's own environment from `environ`.
@Suite(.timeLimit(TestScale.hangGuard))
struct EnvironmentEncodingProcessTests {
    /// Runs `stored-test-helper environment-read PREFIX KEY` with exactly `environment` (raw
    /// `NAME=VALUE` bytes) and returns its output lines, after waiting for it to exit.
    static func run(prefix: String, key: String, environment: [[UInt8]]) throws -> [String] {
        try run(["environment-read", prefix, key], environment: environment)
    }

    /// Runs `stored-test-helper` with `arguments` and exactly `environment`, as above.
    static func run(_ arguments: [String], environment: [[UInt8]]) throws -> [String] {
        guard let helper = ChildProcess.helperPath else { throw HelperMissing() }
        let fds = try closeOnExecPipe()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        let words: [String] = [helper] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] =
            environment.map { bytes in
                let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
                for (index, byte) in bytes.enumerated() { copy[index] = CChar(bitPattern: byte) }
                copy[bytes.count] = 0
                return copy
            } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { pointer?.deallocate() }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, helper, &actions, nil, argv, envp)
        close(fds[1])
        guard code == 0 else {
            close(fds[0])
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EINVAL)
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(fds[0], &buffer, buffer.count)
            if count <= 0 { break }
            output += buffer[0..<count]
        }
        close(fds[0])
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func aChildProcessReportsAVariableThatIsNotUTF8ByName() throws {
        let lines = try Self.run(
            prefix: "APP", key: "name",
            environment: [
                Array("APP_NAME=caf".utf8) + [0xE9], Array("APP_THEME=dark".utf8), Array("APP_lower=x".utf8),
            ])
        #expect(
            lines == [
                "keys theme",
                "reported Setting 'name' in environment variable APP_NAME: the value is not valid UTF-8.",
                "value -absent-",
            ])
    }

    /// Foundation on Linux stops the process on a suite read while HOME is not UTF-8: the store
    /// refuses to open the suite instead, naming HOME.
    @Test(.timeLimit(TestScale.hangGuard))
    func aSuiteDoesNotOpenWhileHomeIsNotUTF8() throws {
        #if !canImport(Darwin)
        let lines = try Self.run(
            ["defaults-open", "settings-test"], environment: [Array("HOME=/tmp/caf".utf8) + [0xE9]])
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("error ") == true, "\(lines)")
        #expect(lines.first?.contains("HOME") == true, "\(lines)")
        #endif
    }

    @Test(.timeLimit(TestScale.hangGuard))
    func aChildProcessReadsItsUTF8Variables() throws {
        let lines = try Self.run(prefix: "APP", key: "theme", environment: [Array("APP_THEME=caf\u{E9}".utf8)])
        #expect(lines == ["keys theme", "value caf\u{E9}"])
    }

    /// A tool reading its own environment (`environment: nil`) holds the same rule: a value
    /// that is not UTF-8 stops the run, naming the variable, and is never read as U+FFFD.
    @Test(.timeLimit(TestScale.hangGuard))
    func aToolStopsOnAVariableThatIsNotUTF8NamingIt() throws {
        let lines = try Self.run(
            ["command-line-read", "app"],
            environment: [
                Array("APP_NAME=caf".utf8) + [0xE9], Array("APP_THEME=dark".utf8), Array("OTHER=".utf8) + [0xFF],
            ])
        #expect(
            lines == [
                "status 65",
                "problem app: Setting 'name' in environment variable APP_NAME: the value is not valid UTF-8.",
            ])
        let good = try Self.run(
            ["command-line-read", "app"],
            environment: [Array("APP_THEME=caf\u{E9}".utf8), Array("OTHER=".utf8) + [0xFF]])
        #expect(good == ["name none", "theme caf\u{E9}"])
    }

    /// A secret file's `NAME_FILE` variable holding bytes that are not UTF-8 stops the tool as
    /// well, naming that variable; a prefixed name that is not UTF-8 is a variable no setting
    /// reads, named with U+FFFD.
    @Test(.timeLimit(TestScale.hangGuard))
    func aToolNamesASecretFileVariableOrANameThatIsNotUTF8() throws {
        let file = try Self.run(
            ["command-line-read", "app"], environment: [Array("APP_NAME_FILE=/tmp/".utf8) + [0xFF]])
        #expect(
            file == [
                "status 65",
                "problem app: Setting 'name' in environment variable APP_NAME_FILE: the value is not valid UTF-8.",
            ])
        let name = try Self.run(
            ["command-line-read", "app"], environment: [Array("APP_NAM".utf8) + [0xFF] + Array("=x".utf8)])
        #expect(
            name == [
                "warning app: warning: environment variable APP_NAM\u{FFFD}: no setting reads this variable (did you mean APP_NAME?).",
                "name none", "theme light",
            ])
    }

    /// `String` takes U+212A KELVIN SIGN for `K`, so `\u{212A}IT_THEME` has the prefix `KIT_`.
    @Test(.timeLimit(TestScale.hangGuard))
    func aNameThatStringTakesForThePrefixIsRead() throws {
        let lines = try Self.run(prefix: "KIT", key: "theme", environment: [Array("\u{212A}IT_THEME=dark".utf8)])
        #expect(lines == ["keys theme", "value dark"])
    }
}
