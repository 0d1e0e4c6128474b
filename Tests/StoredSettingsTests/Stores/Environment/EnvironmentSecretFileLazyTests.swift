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

/// `NAME_FILE` secret files read by a store without declarations: only when the key is asked
/// for and `NAME` is unset.
@Suite(.timeLimit(TestScale.hangGuard))
struct EnvironmentSecretFileLazyTests {
    @Test func aFileVariableSuppliesTheValueWithOneTrailingNewlineTrimmed() throws {
        let folder = try ScratchFolder()
        let secret = folder.file("token")
        try Data("s3cret\n\n".utf8).write(to: secret)
        let crlf = folder.file("crlf")
        try Data("pass\r\n".utf8).write(to: crlf)
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_TOKEN_FILE": secret.path, "APP_PASSWORD_FILE": crlf.path])
        #expect(store.value(forKey: "token") == .string("s3cret\n"))
        #expect(store.value(forKey: "password") == .string("pass"))
        #expect(store.origin(forKey: "token") == "file \(secret.path) (environment variable APP_TOKEN_FILE)")
        #expect(Set(store.keys()) == ["token", "password"])
    }

    @Test func neverReadsAFileNoKeyAsksFor() throws {
        let folder = try ScratchFolder()
        let store = EnvironmentStore(prefix: "APP", environment: ["APP_TOKEN_FILE": folder.file("absent").path])
        let reports = CapturedReports()
        reports.capture {
            #expect(store.value(forKey: "theme") == nil)
            #expect(store.keys() == ["tokenFile"])
        }
        #expect(reports.all.isEmpty)
    }

    @Test func aMissingFileIsReportedOnceNamingTheVariableAndThePath() throws {
        let folder = try ScratchFolder()
        let missing = folder.file("absent").path
        let store = EnvironmentStore(prefix: "APP", environment: ["APP_TOKEN_FILE": missing])
        let reports = CapturedReports()
        reports.capture {
            #expect(store.value(forKey: "token") == nil)
            #expect(store.value(forKey: "token") == nil)
        }
        let error = try #require(reports.all.first)
        #expect(reports.all.count == 1)
        #expect(error.code == .notFound)
        #expect(error.key == "token")
        #expect(error.location == "file \(missing) (environment variable APP_TOKEN_FILE)")
        #expect(error.description.contains("No such file or directory"))
    }

    @Test func theVariableItselfWinsOnlyWhenTheFileVariableIsUnsetElseBothAreAnError() throws {
        let folder = try ScratchFolder()
        let secret = folder.file("token")
        try Data("from-file".utf8).write(to: secret)
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_TOKEN": "from-variable", "APP_TOKEN_FILE": secret.path])
        let reports = CapturedReports()
        reports.capture { #expect(store.value(forKey: "token") == nil) }
        let error = try #require(reports.all.first)
        #expect(error.key == "token")
        #expect(error.description.contains("APP_TOKEN and APP_TOKEN_FILE"))
        #expect(!error.description.contains("from-file"))
        #expect(!error.description.contains("from-variable"))
    }

    @Test func aFIFOOrADeviceIsRefusedWithoutBlocking() throws {
        let folder = try ScratchFolder()
        let fifo = folder.file("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_TOKEN_FILE": fifo, "APP_PIN_FILE": "/dev/zero"])
        let reports = CapturedReports()
        reports.capture {
            #expect(store.value(forKey: "token") == nil)
            #expect(store.value(forKey: "pin") == nil)
        }
        #expect(reports.all.map(\.code) == [.io, .io])
        #expect(reports.all.allSatisfy { $0.description.contains("not a regular file") })
    }

    @Test func aFileOverTheSizeLimitOrNotUTF8IsAnError() throws {
        let folder = try ScratchFolder()
        let large = folder.file("large")
        try Data(repeating: UInt8(ascii: "a"), count: 64 * 1024 + 1).write(to: large)
        let binary = folder.file("binary")
        try Data([0x66, 0xFF, 0x0A]).write(to: binary)
        let limit = folder.file("limit")
        try Data(repeating: UInt8(ascii: "b"), count: 64 * 1024).write(to: limit)
        let store = EnvironmentStore(
            prefix: "APP",
            environment: ["APP_TOKEN_FILE": large.path, "APP_PIN_FILE": binary.path, "APP_KEY_FILE": limit.path])
        let reports = CapturedReports()
        reports.capture {
            #expect(store.value(forKey: "token") == nil)
            #expect(store.value(forKey: "pin") == nil)
            guard case .string(let atLimit)? = store.value(forKey: "key") else {
                Issue.record("a file of exactly 64 KiB is read")
                return
            }
            #expect(atLimit.utf8.count == 64 * 1024)
        }
        #expect(reports.all.map(\.code) == [.tooLarge, .dataCorrupted])
        #expect(reports.all.map(\.key) == ["token", "pin"])
    }

    @Test func anUnreadableFileNamesTheErrnoText() throws {
        // Root reads any file whatever its mode: use a folder path, which open(2) refuses for
        // reading with EISDIR... it opens; fstat then says it is not a regular file. Use a
        // path below a regular file instead: ENOTDIR for everyone.
        let folder = try ScratchFolder()
        let plain = folder.file("plain")
        try Data("x".utf8).write(to: plain)
        let below = plain.path + "/secret"
        let store = EnvironmentStore(prefix: "APP", environment: ["APP_TOKEN_FILE": below])
        let reports = CapturedReports()
        reports.capture { #expect(store.value(forKey: "token") == nil) }
        let error = try #require(reports.all.first)
        #expect(error.code == .io)
        #expect(error.description.contains("Not a directory"))
        #expect(error.description.contains("APP_TOKEN_FILE"))
        #expect(error.description.contains(below))
    }
}
