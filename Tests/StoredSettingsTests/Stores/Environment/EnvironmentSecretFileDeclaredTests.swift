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

/// Settings whose secret files a declared environment store reads at creation.
struct SecretFileSettings: SettingsGroup {
    @Stored("token", secret: true)
    var token: String?
    @Stored("motto", default: "")
    var motto: String
    @Stored("config", default: "")
    var config: String
    @Stored("configFile", default: "")
    var configFile: String
}

/// `NAME_FILE` secret files of a store created with declarations, and how they stay redacted.
@Suite(.timeLimit(TestScale.hangGuard))
struct EnvironmentSecretFileDeclaredTests {
    /// Writes `text` to a new file with `mode`, returning its path.
    func secretFile(_ text: String, in folder: ScratchFolder, mode: mode_t = 0o600) throws -> String {
        let url = folder.file("secret-\(UUID().uuidString)")
        try Data(text.utf8).write(to: url)
        #expect(chmod(url.path, mode) == 0)
        return url.path
    }

    @Test func declaredSecretFilesAreReadAtCreation() throws {
        let folder = try ScratchFolder()
        let path = try secretFile("s3cret\n", in: folder)
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_TOKEN_FILE": path], declaredBy: SecretFileSettings.self)
        #expect(unlink(path) == 0)
        #expect(store.value(forKey: "token") == .string("s3cret"))
        #expect(store.origin(forKey: "token") == "file \(path) (environment variable APP_TOKEN_FILE)")
        #expect(store.keys() == ["token"])
        #expect(store.errors.isEmpty)
        #expect(store.warnings.isEmpty)
        try store.validate()
    }

    @Test func aMissingDeclaredFileIsAnErrorThatValidateThrowsAndReadsDoNotReport() throws {
        let folder = try ScratchFolder()
        let missing = folder.file("absent").path
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_TOKEN_FILE": missing], declaredBy: SecretFileSettings.self)
        let error = try #require(store.errors.first)
        #expect(store.errors.count == 1)
        #expect(error.code == .notFound)
        #expect(error.key == "token")
        #expect(error.description.contains("APP_TOKEN_FILE"))
        #expect(error.description.contains(missing))
        #expect(throws: error) { try store.validate() }
        let reports = CapturedReports()
        reports.capture { #expect(store.value(forKey: "token") == nil) }
        #expect(reports.all.isEmpty)
    }

    @Test func bothTheVariableAndItsFileAreAnError() throws {
        let folder = try ScratchFolder()
        let path = try secretFile("from-file", in: folder)
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_TOKEN": "from-variable", "APP_TOKEN_FILE": path],
            declaredBy: SecretFileSettings.self)
        #expect(store.errors.map(\.code) == [.ambiguousVariable])
        #expect(store.value(forKey: "token") == nil)
        #expect(store.keys().isEmpty)
    }

    @Test func aSecretFileEveryUserMayReadDrawsAWarningForSecretSettingsOnly() throws {
        let folder = try ScratchFolder()
        let open = try secretFile("s3cret", in: folder, mode: 0o644)
        let groupOnly = try secretFile("s3cret", in: folder, mode: 0o640)
        let plain = try secretFile("hello", in: folder, mode: 0o644)
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_TOKEN_FILE": open, "APP_MOTTO_FILE": plain],
            declaredBy: SecretFileSettings.self)
        #expect(store.warnings.map(\.code) == [.insecurePermissions])
        #expect(store.warnings.first?.key == "token")
        #expect(store.warnings.first?.description.contains(open) == true)
        #expect(store.value(forKey: "token") == .string("s3cret"))
        #expect(store.value(forKey: "motto") == .string("hello"))
        let quiet = EnvironmentStore(
            prefix: "APP", environment: ["APP_TOKEN_FILE": groupOnly], declaredBy: SecretFileSettings.self)
        #expect(quiet.warnings.isEmpty)
    }

    @Test func aDeclaredKeyWhoseVariableEndsInFileKeepsItsPlainMeaning() {
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_CONFIG_FILE": "/nonexistent/settings.json"],
            declaredBy: SecretFileSettings.self)
        let reports = CapturedReports()
        reports.capture {
            #expect(store.value(forKey: "configFile") == .string("/nonexistent/settings.json"))
            #expect(store.value(forKey: "config") == nil)
        }
        #expect(reports.all.isEmpty, "APP_CONFIG_FILE is never read as the secret file of config")
        #expect(store.errors.isEmpty)
        #expect(store.warnings.isEmpty)
    }

    @Test func aSecretFromAFileIsRedactedInConfigListGetAndErrors() throws {
        let folder = try ScratchFolder()
        let token = try secretFile("tok-s3cret\n", in: folder)
        let pin = try secretFile("pin-s3cret", in: folder)
        let file = try TemporaryFileStore()
        let environment = EnvironmentStore(
            prefix: "TOOL", environment: ["TOOL_API_TOKEN_FILE": token, "TOOL_PIN_FILE": pin],
            declaredBy: ToolSettings.self)
        let settings = ToolSettings(store: LayeredStore([environment, file], writingTo: file))
        var output = ""
        var error = ""
        let status = SettingsCommand(settings, toolName: "tool").run(
            arguments: ["list", "--show-origin"], output: &output, error: &error)
        #expect(status == 65)
        #expect(
            output.contains(
                "apiToken    String     <redacted>  file \(token) (environment variable TOOL_API_TOKEN_FILE)\n"))
        var getOutput = ""
        _ = SettingsCommand(settings, toolName: "tool").run(
            arguments: ["get", "apiToken"], output: &getOutput, error: &error)
        #expect(getOutput == "<redacted>\n")
        let reports = CapturedReports()
        reports.capture { #expect(settings.pin == nil) }
        let everything =
            output + getOutput + error + reports.all.map(\.description).joined()
            + environment.errors.map(\.description).joined() + environment.warnings.map(\.description).joined()
        #expect(!everything.contains("s3cret"))
        #expect(reports.all.first?.location == "file \(pin) (environment variable TOOL_PIN_FILE)")
    }
}
