import Foundation
import StoredSettings
import Testing

/// JSON text that holds no stored value is refused with the keys and indices that lead to it.
@Suite(.timeLimit(TestScale.hangGuard))
struct JSONErrorLocationTests {
    @Test(
        arguments: [
            (#"{"a": null}"#, ["a"]),
            (#"[0, [1, null]]"#, ["1", "1"]),
            (#"{"a": {"b": [1, {"c": nul}]}}"#, ["a", "b", "1", "c"]),
            (#"{"a": [1, 2, "x]}"#, ["a", "2"]),
            (#"{"a": 1} x"#, []),
        ] as [(String, [String])])
    func errorCarriesTheCodingPath(json: String, codingPath: [String]) throws {
        let error = try #require(throws: StorageError.self) { try StoredValueJSON.parse(Data(json.utf8)) }
        #expect(error.code == .dataCorrupted)
        #expect(error.codingPath == codingPath)
    }

    @Test func fileStoreOpenNamesThePlaceOfTheNull() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "JSONErrorLocation-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("settings.json")
        try Data(#"{"theme": "dark", "profile": {"tags": [null]}}"#.utf8).write(to: url)
        let error = try #require(throws: StorageError.self) { try FileStore(url: url) }
        #expect(
            error.description == "\(url.path) at 'profile.tags.0': null is not a stored value at line 1, column 40.")
    }
}
