import Foundation
import StoredSettings
import StoredSettingsCommandLine
import StoredSettingsTestSupport
import Testing

/// Settings with list values, read from the environment.
struct ListSettings: SettingsGroup {
    @Stored("hosts", default: [])
    var hosts: [String]
    @Stored("ports", default: [80])
    var ports: [Int]
    @Stored("labels", default: [])
    var labels: Set<String>
}

@Suite(.timeLimit(TestScale.hangGuard))
struct EnvironmentListTests {
    @Test func commaSeparatedTextFillsAnArrayThroughALayeredStore() throws {
        let file = try TemporaryFileStore()
        try file.setValue(.array([.string("file")]), forKey: "hosts")
        let environment = EnvironmentStore(prefix: "APP", environment: ["APP_HOSTS": "a, b", "APP_PORTS": "1,2"])
        let settings = ListSettings(store: LayeredStore([environment, file], writingTo: file))
        let reports = CapturedReports()
        reports.capture {
            #expect(settings.hosts == ["a", "b"])
            #expect(settings.ports == [1, 2])
        }
        #expect(reports.all.isEmpty)
        #expect(file.value(forKey: "hosts") == .array([.string("file")]))
    }

    @Test func escapedCommasAndJSONTextFillLists() throws {
        let environment = EnvironmentStore(
            prefix: "APP", environment: [#"APP_HOSTS"#: #"a\,b,c"#, "APP_LABELS": #"["x", "y"]"#])
        let settings = ListSettings(store: environment)
        #expect(try settings.$hosts.load() == ["a,b", "c"])
        #expect(try settings.$labels.load() == ["x", "y"])
    }

    @Test func aMalformedListIsATypeMismatchNamingTheVariable() throws {
        let environment = EnvironmentStore(prefix: "APP", environment: ["APP_PORTS": "1,,2"])
        let file = try TemporaryFileStore()
        let settings = ListSettings(store: LayeredStore([environment, file], writingTo: file))
        let error = try #require(throws: StorageError.self) { try settings.$ports.load() }
        #expect(error.code == .typeMismatch)
        #expect(error.key == "ports")
        #expect(error.location == "environment variable APP_PORTS")
        #expect(error.description.contains("APP_PORTS"))
        #expect(error.description.contains("item 2 of 3 is empty"))
        let reports = CapturedReports()
        reports.capture { #expect(settings.ports == [80]) }
        #expect(reports.all.map(\.location) == ["environment variable APP_PORTS"])
    }

    @Test func aMalformedListIsAProblemLineOfConfigListNamingTheVariable() throws {
        let tool = try ToolStores(environment: ["TOOL_TAGS": "work,,home"])
        let run = tool.run("list", "--show-origin")
        #expect(run.status == 65)
        #expect(run.output.contains("tags        [String]   (invalid)"))
        #expect(run.output.contains("environment variable TOOL_TAGS\n"))
        #expect(
            run.error.contains(
                "Setting 'tags' in environment variable TOOL_TAGS: expected [String], found malformed list text"))
    }
}
