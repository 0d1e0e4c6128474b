import Foundation
import StoredCLI
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// NaN and infinities: a property list and a UserDefaults domain keep them and `stored` shows
/// them as the text `-float` reads back; a JSON file refuses them at the write.
@Suite(.timeLimit(.hangGuard))
struct NonFiniteDoubleTests {
    @Test func aPropertyListKeepsNaNAndInfinityAndTheBuiltExecutableReadsAndExportsThem() throws {
        let executable = try EndToEndTests.storedExecutable()
        let folder = try TemporaryFolder()
        for (key, text) in [("nan", "nan"), ("up", "inf"), ("down", "-infinity")] {
            let write = try EndToEndTests.run(executable, ["write", "./p.plist", key, "-float", text], in: folder.url)
            #expect(write.status == 0, "\(write.errors)")
        }
        let store = try FileStore(url: folder.url.appendingPathComponent("p.plist"))
        #expect(Self.isNaN(store.value(forKey: "nan")))
        #expect(store.value(forKey: "up") == .double(.infinity))
        #expect(store.value(forKey: "down") == .double(-.infinity))

        let one = try EndToEndTests.run(executable, ["read", "./p.plist", "nan"], in: folder.url)
        #expect(one.status == 0, "\(one.errors)")
        #expect(one.output == "\"nan\"\n")
        let all = try EndToEndTests.run(executable, ["read", "./p.plist"], in: folder.url)
        #expect(all.status == 0, "\(all.errors)")
        #expect(all.output == "{\n  \"down\": \"-inf\",\n  \"nan\": \"nan\",\n  \"up\": \"inf\"\n}\n")
        let json = try EndToEndTests.run(executable, ["export", "./p.plist"], in: folder.url)
        #expect(json.status == 0, "\(json.errors)")
        #expect(json.output == all.output)

        let plist = try EndToEndTests.run(executable, ["export", "./p.plist", "--format", "plist"], in: folder.url)
        #expect(plist.status == 0, "\(plist.errors)")
        let object = try PropertyListSerialization.propertyList(from: Data(plist.output.utf8), format: nil)
        guard case .dictionary(let exported) = PropertyListValue.storedValue(from: object) else {
            Issue.record("not a dictionary: \(plist.output)")
            return
        }
        #expect(Set(exported.keys) == ["nan", "up", "down"])
        #expect(Self.isNaN(exported["nan"]))
        #expect(exported["up"] == .double(.infinity) && exported["down"] == .double(-.infinity))
    }

    @Test func theTextReadPrintsForNaNAndInfinityIsWhatFloatReadsBack() throws {
        let folder = try TemporaryFolder()
        let source = folder.path("source.plist")
        let copy = folder.path("copy.plist")
        for (key, text, shown) in [("nan", "nan", "nan"), ("up", "+Infinity", "inf"), ("down", "-inf", "-inf")] {
            expectSuccess(stored("write", source, key, "-float", text))
            expectSuccess(stored("read", source, key), output: "\"\(shown)\"\n")
            expectSuccess(stored("write", copy, key, "-float", shown))
        }
        let original = try FileStore(url: URL(fileURLWithPath: source))
        let copied = try FileStore(url: URL(fileURLWithPath: copy))
        #expect(Self.isNaN(original.value(forKey: "nan")) && Self.isNaN(copied.value(forKey: "nan")))
        #expect(original.value(forKey: "up") == .double(.infinity))
        #expect(original.value(forKey: "down") == .double(-.infinity))
        #expect(copied.value(forKey: "up") == original.value(forKey: "up"))
        #expect(copied.value(forKey: "down") == original.value(forKey: "down"))
    }

    @Test func nanInsideAListInAPropertyListIsShownInPlace() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "list.plist",
            "<plist><dict><key>list</key><array><real>1.5</real><real>nan</real></array></dict></plist>")
        expectSuccess(stored("read", file, "list"), output: "[\n  1.5,\n  \"nan\"\n]\n")
    }

    @Test(.enabled(if: namedSuitesStayInTestFolders, "on Apple platforms a named suite is in the real preferences"))
    func aUserDefaultsDomainKeepsNaNAndReadAndExportShowIt() throws {
        let suite = TemporarySuite()
        expectSuccess(stored("write", "--domain", suite.name, "ratio", "-float", "nan"))
        expectSuccess(stored("write", "--domain", suite.name, "limit", "-float", "-inf"))
        expectSuccess(stored("read", "--domain", suite.name, "ratio"), output: "\"nan\"\n")
        expectSuccess(
            stored("export", "--domain", suite.name), output: "{\n  \"limit\": \"-inf\",\n  \"ratio\": \"nan\"\n}\n")
        let defaults = try #require(UserDefaults(suiteName: suite.name))
        #expect(defaults.double(forKey: "ratio").isNaN)
        #expect(defaults.double(forKey: "limit") == -.infinity)
    }

    /// Whether `value` is a NaN `Double`, whatever its bit pattern.
    static func isNaN(_ value: StoredValue?) -> Bool {
        guard case .double(let number) = value else { return false }
        return number.isNaN
    }

    @Test func aJSONFileRefusesInfinityAtTheWriteNamingTheFileAndKeepsItsText() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("demo.json", "{\"ratio\": 0.5}\n")
        expectFailure(
            stored("write", file, "ratio", "-float", "-inf"), .dataError,
            line: "stored: Setting 'ratio' in \(file): expected Double: JSON has no form for NaN or infinity."
        )
        #expect(folder.text("demo.json") == "{\"ratio\": 0.5}\n")
    }
}
