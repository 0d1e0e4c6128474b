import Foundation
import StoredSettings
import Testing

/// Where `FileStore(application:)` keeps its file, from an injected environment.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStorePathTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var environment: [String: String]
        var passwordHome: String?
        var expected: String?
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "absolute XDG_CONFIG_HOME", environment: ["XDG_CONFIG_HOME": "/x/config", "HOME": "/Users/ada"],
            passwordHome: "/pw", expected: "/x/config/tool/settings.json"),
        Case(
            name: "relative XDG_CONFIG_HOME is ignored",
            environment: ["XDG_CONFIG_HOME": "config", "HOME": "/Users/ada"], passwordHome: "/pw",
            expected: "/Users/ada/.config/tool/settings.json"),
        Case(
            name: "empty XDG_CONFIG_HOME is ignored", environment: ["XDG_CONFIG_HOME": "", "HOME": "/Users/ada/"],
            passwordHome: "/pw", expected: "/Users/ada/.config/tool/settings.json"),
        Case(
            name: "HOME unset uses the password database", environment: [:], passwordHome: "/srv/pw",
            expected: "/srv/pw/.config/tool/settings.json"),
        Case(
            name: "relative HOME uses the password database", environment: ["HOME": "ada"], passwordHome: "/srv/pw",
            expected: "/srv/pw/.config/tool/settings.json"),
        Case(
            name: "HOME is the root", environment: ["HOME": "/", "XDG_CONFIG_HOME": "/"], passwordHome: "/srv/pw",
            expected: "/srv/pw/.config/tool/settings.json"),
        Case(name: "no home anywhere", environment: ["HOME": "/"], passwordHome: "/", expected: nil),
        Case(name: "no home and no password entry", environment: [:], passwordHome: nil, expected: nil),
    ]

    @Test(arguments: cases)
    func configurationFileFollowsTheXDGRules(_ test: Case) throws {
        if let expected = test.expected {
            let url = try FileStore.configurationURL(
                application: "tool", environment: test.environment, passwordDatabaseHome: { test.passwordHome })
            #expect(url.path == expected)
        } else {
            let error = try #require(throws: StorageError.self) {
                try FileStore.configurationURL(
                    application: "tool", environment: test.environment, passwordDatabaseHome: { test.passwordHome })
            }
            #expect(error.code == .io)
        }
    }

    @Test(arguments: ["", ".", "..", "a/b", "../etc", "-rf", "a\u{0}b", "tab\there", "x..y"])
    func unsafeApplicationNamesAreRejected(_ name: String) throws {
        let error = try #require(throws: StorageError.self) {
            try FileStore.configurationURL(application: name, environment: ["HOME": "/Users/ada"])
        }
        #expect(error.code == .invalidKey)
    }

    @Test func passwordDatabaseHasAHomeForTheCurrentUser() {
        #expect(FileStore.passwordDatabaseHome()?.hasPrefix("/") == true)
    }
}
