import Foundation
import StoredCLI
import StoredSettings
import Testing

/// A large whole `Double` stays a number through `stored`: `-json`, `read` and `export`.
@Suite(.timeLimit(.hangGuard))
struct LargeDoubleTests {
    @Test func aJSONListWithALargeWholeDoubleIsWrittenReadAndExportedAsNumbers() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("d.json")
        expectSuccess(stored("write", file, "list", "-json", "[1.2173636321265912e18, 1.5]"))
        let store = try FileStore(url: URL(fileURLWithPath: file))
        #expect(store.value(forKey: "list") == .array([.double(1.2173636321265912e18), .double(1.5)]))
        #expect(try String(contentsOfFile: file, encoding: .utf8).contains("1.2173636321265912e+18,"))
        expectSuccess(
            stored("read", file, "list"), output: "[\n  1.2173636321265912e+18,\n  1.5\n]\n")
        let plist = stored("export", file, "--format", "plist")
        expectSuccess(plist)
        #expect(!plist.output.contains("<string>"), "\(plist.output)")
        let object = try PropertyListSerialization.propertyList(from: Data(plist.output.utf8), format: nil)
        #expect(
            PropertyListValue.storedValue(from: object)
                == .dictionary(["list": .array([.double(1.2173636321265912e18), .double(1.5)])]))
    }
}
