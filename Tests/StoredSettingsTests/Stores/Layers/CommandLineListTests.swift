import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// Settings with lists and flags, for the command line's list and Bool rules.
struct ListOptionSettings: SettingsGroup {
    @Stored("host", default: [], help: "Hosts to reach.")
    var hosts: [String]
    @Stored("ports", default: [])
    var ports: [Int]
    @Stored("tags", default: [])
    var tags: Set<String>
    @Stored("autoReload", default: false)
    var autoReload: Bool
    @Stored("title", default: "")
    var title: String
}

@Suite(.timeLimit(TestScale.hangGuard))
struct CommandLineListTests {
    /// The settings read through a store made from `arguments`, and that store.
    private func settings(_ arguments: [String]) -> (ListOptionSettings, CommandLineStore) {
        let commandLine = CommandLineStore(arguments: arguments, declaredBy: ListOptionSettings.self)
        let store = LayeredStore([commandLine, InMemoryStore()], writingTo: InMemoryStore())
        return (ListOptionSettings(store: store), commandLine)
    }

    struct ListCase: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var hosts: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    @Test(arguments: [
        ListCase(arguments: ["--host", "a", "--host", "b"], hosts: ["a", "b"]),
        ListCase(arguments: ["--host", "a,b"], hosts: ["a", "b"]),
        ListCase(arguments: ["--host=a, b", "--host", "c"], hosts: ["a", "b", "c"]),
        ListCase(arguments: ["--host", #"["a","b"]"#, "--host", "c"], hosts: ["a", "b", "c"]),
        ListCase(arguments: ["--host", #"a\,b"#, "--host", "c"], hosts: ["a,b", "c"]),
        ListCase(arguments: ["--set", "host=a,b"], hosts: ["a", "b"]),
        ListCase(arguments: ["--set", "host=a", "--set", "host=b"], hosts: ["b"]),
        ListCase(arguments: ["--host", "a", "--set", "host=b"], hosts: ["b"]),
        ListCase(arguments: ["--set", "host=b", "--host", "a"], hosts: ["b", "a"]),
    ])
    func repeatedListOptionsJoinTheirItems(_ test: ListCase) {
        let (settings, commandLine) = settings(test.arguments)
        #expect(commandLine.errors.isEmpty)
        #expect(settings.hosts == test.hosts)
    }

    @Test func repeatedIntegerAndSetOptionsReadAsTheirElementType() {
        let (settings, _) = settings(["--ports", "1,2", "--ports", "3", "--tags", "x", "--tags", "y,x"])
        #expect(settings.ports == [1, 2, 3])
        #expect(settings.tags == ["x", "y"])
    }

    @Test func aMalformedListIsATypeMismatchNamingTheOption() throws {
        for arguments in [["--ports", "1,,2"], ["--ports", "1", "--ports", "2,,3"]] {
            let (settings, _) = settings(arguments)
            let reports = CapturedReports()
            reports.capture { #expect(settings.ports == []) }
            let problem = try #require(reports.all.first)
            #expect(problem.code == .typeMismatch)
            #expect(problem.key == "ports")
            #expect(problem.location == "--ports on the command line")
            #expect(problem.expectedType == "[Int]")
        }
    }

    @Test(arguments: ["false", "true", "no", "yes", "off", "on", "0", "1", "FALSE"])
    func aFlagFollowedByABooleanWordIsAnErrorWithAHint(_ word: String) throws {
        let (settings, commandLine) = settings(["--auto-reload", word, "notes.txt"])
        let problem = try #require(commandLine.errors.first)
        #expect(problem.code == .invalidArgument)
        #expect(problem.key == "autoReload")
        let spelled = Bool(lenientText: word) ?? true
        let hint = spelled ? "--auto-reload=true or --auto-reload" : "--auto-reload=false or --no-auto-reload"
        #expect(problem.message == "--auto-reload is a flag and takes no separate value '\(word)'; write \(hint)")
        #expect(!commandLine.remainingArguments.contains(word))
        #expect(commandLine.remainingArguments == ["notes.txt"])
        #expect(settings.autoReload == false)
    }

    @Test func anOptionNamingAFieldOfAStructureKeepsTheOtherFields() {
        struct Frame: Codable, Equatable, Sendable, StoredValueConvertible {
            var width: Int
            var height: Int
        }
        struct FrameSettings: SettingsGroup {
            @Stored("frame", default: Frame(width: 1, height: 1))
            var frame: Frame
        }
        let file = InMemoryStore(["frame": .dictionary(["width": .int(60), "height": .int(20)])])
        let commandLine = CommandLineStore(arguments: ["--frame.height", "40"], declaredBy: FrameSettings.self)
        #expect(commandLine.errors.isEmpty)
        #expect(commandLine.remainingArguments.isEmpty)
        let settings = FrameSettings(store: LayeredStore([commandLine, file], writingTo: file))
        #expect(settings.frame == Frame(width: 60, height: 40))
        #expect(file.value(forKey: "frame") == .dictionary(["width": .int(60), "height": .int(20)]))
    }

    @Test func aFlagWithAnAttachedBooleanWordSetsIt() {
        #expect(settings(["--auto-reload=false"]).0.autoReload == false)
        #expect(settings(["--auto-reload=true"]).0.autoReload == true)
        #expect(settings(["--auto-reload", "notes.txt"]).1.remainingArguments == ["notes.txt"])
    }
}

extension Bool {
    /// The Boolean words the command line knows, for the test's expectations.
    fileprivate init?(lenientText text: String) {
        switch text.lowercased() {
        case "true", "yes", "on", "1": self = true
        case "false", "no", "off", "0": self = false
        default: return nil
        }
    }
}

@Suite(.timeLimit(TestScale.hangGuard))
struct CommandLineEmptyListOccurrenceTests {
    @Test(arguments: [["--host", "a", "--host", " "], ["--host", "a", "--host="], ["--host=", "--host", "a"]])
    func aRepeatedListOptionWithAnEmptyOccurrenceIsAnError(arguments: [String]) {
        let commandLine = CommandLineStore(arguments: arguments, declaredBy: ListOptionSettings.self)
        #expect(commandLine.errors.count == 1)
        #expect(commandLine.errors.first?.code == .invalidArgument)
        #expect(commandLine.errors.first?.description.contains("--host is given more than once") == true)
    }

    @Test func oneEmptyOccurrenceIsTheEmptyList() throws {
        let commandLine = CommandLineStore(arguments: ["--host="], declaredBy: ListOptionSettings.self)
        #expect(commandLine.errors.isEmpty)
        #expect(try [String](storedValue: #require(commandLine.value(forKey: "host"))) == [])
    }
}
