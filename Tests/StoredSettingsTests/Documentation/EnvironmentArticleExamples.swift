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

/// The environment part of the "Configuration for command-line tools" article, so the
/// compiler checks its example and the tests check the words it quotes.
@Suite(.timeLimit(TestScale.hangGuard))
struct EnvironmentArticleExamples {
    @Test func theDeclaredStoreOfTheArticleReadsASecretFileAndWarnsAsQuoted() throws {
        let folder = try ScratchFolder()
        let token = folder.file("token")
        try Data("abc\n".utf8).write(to: token)
        #expect(chmod(token.path, 0o600) == 0)
        let environment = EnvironmentStore(
            prefix: "NOTES", environment: ["NOTES_SYNC_TOKEN_FILE": token.path, "NOTES_EDITR": "nano"],
            declaredBy: NotesSettings.self)
        #expect(NotesSettings(store: environment).syncToken == "abc")
        #expect(
            environment.origin(forKey: "syncToken")
                == "file \(token.path) (environment variable NOTES_SYNC_TOKEN_FILE)")
        #expect(
            environment.warnings.map(\.description) == [
                "environment variable NOTES_EDITR: no setting reads this variable (did you mean NOTES_EDITOR?)."
            ])
    }

    @Test func theArticlesLineCompilesAgainstTheProcessEnvironment() {
        let environment = EnvironmentStore(prefix: "NOTES", declaredBy: NotesSettings.self)
        #expect(environment.prefix == "NOTES_")
    }
}
