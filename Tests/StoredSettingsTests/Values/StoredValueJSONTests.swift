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

/// A file is written with its keys sorted, whatever was added and removed.
@Suite(.timeLimit(TestScale.hangGuard))
struct JSONKeyOrderTests {
    @Test func fileStoreWritesItsKeysSortedAfterAddingAndRemovingKeys() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(.int(1), forKey: "m")
        try store.setValue(.int(2), forKey: "z")
        try store.setValue(.int(3), forKey: "m")
        try store.setValue(nil, forKey: "z")
        try store.setValue(.int(4), forKey: "a")
        #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self) == "{\n  \"a\": 4,\n  \"m\": 3\n}\n")
    }
}

/// The room a parse reserves for a file's root object follows its members, never the colons
/// inside its strings or nested containers: a one-key file of colons stays one key's size.
@Suite(.timeLimit(TestScale.hangGuard))
struct JSONRootCapacityTests {
    static func rootCapacity(_ json: String) throws -> Int {
        guard case .dictionary(let root) = try StoredValueJSON.parse(Data(json.utf8)) else { return -1 }
        return root.capacity
    }

    @Test func colonsInAStringReserveNothing() throws {
        let colons = String(repeating: ":", count: 1 << 20)
        #expect(try Self.rootCapacity(#"{"note": "\#(colons)"}"#) < 16)
        #expect(try Self.rootCapacity(#"{"note": "\"\#(colons)\\"}"#) < 16)
    }

    @Test func colonsInNestedContainersReserveNothing() throws {
        let nested = Array(repeating: #"{"a": 1, "b": {"c": 2}}"#, count: 10_000).joined(separator: ", ")
        #expect(try Self.rootCapacity(#"{"list": [\#(nested)], "k": 1}"#) < 16)
    }

    @Test func everyMemberOfTheRootHasRoomAtOnce() throws {
        let members = (0..<5_000).map { #""key\#($0)": \#($0)"# }.joined(separator: ", ")
        let capacity = try Self.rootCapacity("{\(members)}")
        #expect(capacity >= 5_000 && capacity < 10_000)
    }
}
