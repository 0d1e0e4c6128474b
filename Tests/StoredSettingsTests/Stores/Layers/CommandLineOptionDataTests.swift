import Foundation
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// `CommandLineStore` reads options described as plain data; only `declaredBy:` (in the
/// command-line layer) knows settings groups and the `config` subcommand's flags.
@Suite(.timeLimit(TestScale.hangGuard))
struct CommandLineOptionDataTests {
    let options = [
        CommandLineStore.Option(name: "json", key: "json", isFlag: true),
        CommandLineStore.Option(name: "font-size", key: "fontSize", isFlag: false),
    ]

    @Test func optionsGivenAsDataAreReadWithoutASettingsGroup() throws {
        let store = CommandLineStore(arguments: ["--json", "--font-size", "14", "notes.txt"], options: options)
        try store.validate()
        #expect(store.value(forKey: "json") == .bool(true))
        #expect(store.value(forKey: "fontSize") == .string("14"))
        #expect(store.remainingArguments == ["notes.txt"])
    }

    @Test func reservedNamesGivenAsDataStayTheTools() throws {
        let store = CommandLineStore(
            arguments: ["--json", "--no-json", "--font-size=14"], options: options, reservedNames: ["json"]
        )
        try store.validate()
        #expect(store.value(forKey: "json") == nil)
        #expect(store.value(forKey: "fontSize") == .string("14"))
        #expect(store.remainingArguments == ["--json", "--no-json"])
    }

    @Test func setIsReservedEvenWhenNoNameIsGiven() throws {
        let store = CommandLineStore(
            arguments: ["--set", "fontSize=12"], options: [.init(name: "set", key: "set", isFlag: true)]
        )
        try store.validate()
        #expect(store.value(forKey: "fontSize") == .string("12"))
        #expect(store.value(forKey: "set") == nil)
    }
}
