import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// An empty `NAME_FILE` file, and how messages name the file of a setting that is not secret.
@Suite(.timeLimit(TestScale.hangGuard))
struct EnvironmentFileWarningTests {
    /// Writes `text` to a new file readable by its owner only, returning its path.
    func file(_ text: String, in folder: ScratchFolder) throws -> String {
        let url = folder.file("file-\(UUID().uuidString)")
        try Data(text.utf8).write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return url.path
    }

    @Test func anEmptyDeclaredSecretFileCountsAsUnsetWithAWarning() throws {
        let folder = try ScratchFolder()
        let path = try file("", in: folder)
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_TOKEN_FILE": path], declaredBy: SecretFileSettings.self)
        #expect(store.value(forKey: "token") == nil)
        #expect(store.errors.isEmpty)
        #expect(
            store.warnings.map(\.description) == [
                "Setting 'token' in file \(path) (environment variable APP_TOKEN_FILE): the secret file is empty, so the setting counts as unset."
            ])
    }

    @Test func anEmptyFileIsAnEmptyValueWithoutAWarningWhenEmptyValuesAreKept() throws {
        let folder = try ScratchFolder()
        let path = try file("", in: folder)
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_MOTTO_FILE": path], declaredBy: SecretFileSettings.self,
            emptyValues: .empty)
        #expect(store.value(forKey: "motto") == .string(""))
        #expect(store.warnings.isEmpty)
    }

    @Test func theFileOfASettingThatIsNotSecretIsNotCalledASecretFile() throws {
        let folder = try ScratchFolder()
        let missing = folder.file("absent").path
        let store = EnvironmentStore(
            prefix: "APP", environment: ["APP_MOTTO_FILE": missing], declaredBy: SecretFileSettings.self)
        #expect(
            store.errors.map(\.description) == [
                "Setting 'motto' in file \(missing) (environment variable APP_MOTTO_FILE): cannot open the file: No such file or directory."
            ])
        let empty = try file("", in: folder)
        let emptyStore = EnvironmentStore(
            prefix: "APP", environment: ["APP_MOTTO_FILE": empty], declaredBy: SecretFileSettings.self)
        #expect(
            emptyStore.warnings.map(\.description) == [
                "Setting 'motto' in file \(empty) (environment variable APP_MOTTO_FILE): the file is empty, so the setting counts as unset."
            ])
    }
}
