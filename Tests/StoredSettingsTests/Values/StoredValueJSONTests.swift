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

/// A file rewritten with the key order of the last write: the order is reused only for a root
/// object with exactly the same keys, so the file stays sorted whatever changed.
@Suite(.timeLimit(TestScale.hangGuard))
struct JSONKeyOrderTests {
    @Test func rewriteWithOtherKeysOfTheSameCountIsSortedAgain() throws {
        var order = StoredValueJSON.KeyOrder()
        let roots: [[String: StoredValue]] = [
            ["a": .int(1), "c": .int(3)],
            ["a": .int(1), "c": .int(4)], // the same keys: the order is reused
            ["a": .int(1), "b": .int(2)], // as many keys, another set
            ["b": .int(2), "a": .int(1), "d": .int(5)], // one more
            ["d": .int(5)], // fewer
            [:],
            ["z": .bool(true), "é": .string("x"), "A": .int(0)],
        ]
        for root in roots {
            let kept = try StoredValueJSON.data(
                from: .dictionary(root), keeping: StoredValueJSON.SourceText(), order: &order)
            #expect(kept == (try StoredValueJSON.data(from: .dictionary(root))))
        }
    }

    /// A rewrite copies the members that did not change from the text written last: whichever
    /// members changed (the first, the last, several, none, all), one-line or pretty, the bytes
    /// are those of a write from scratch.
    @Test(arguments: [true, false])
    func aRewriteCopyingUnchangedMembersWritesTheSameBytes(pretty: Bool) throws {
        var order = StoredValueJSON.KeyOrder()
        let base: [String: StoredValue] = [
            "a": .int(1), "b": .string("two \"quoted\""), "c": .array([.bool(true), .double(2.5)]),
            "d": .dictionary(["x": .int(1), "y": .string("é")]), "e": .bool(false),
        ]
        var roots = [base]
        for key in ["a", "c", "e"] {
            var changed = roots[roots.count - 1]
            changed[key] = .string("changed \(key)")
            roots.append(changed)
        }
        roots.append(roots[roots.count - 1]) // nothing changed
        roots.append(base.mapValues { _ in .int(0) }) // everything changed
        roots.append(base.merging(["b": .int(2), "d": .int(4)]) { $1 }) // two apart
        for root in roots {
            let kept = try StoredValueJSON.data(
                from: .dictionary(root), pretty: pretty, keeping: StoredValueJSON.SourceText(), order: &order)
            #expect(kept == (try StoredValueJSON.data(from: .dictionary(root), pretty: pretty)))
        }
    }

    /// The same value under a key of other scalars (`café` removed and added again in NFD) at
    /// the same place is written as the root spells it, not copied from the last write.
    @Test func aCopiedMemberNeedsTheSameKeyBytes() throws {
        var order = StoredValueJSON.KeyOrder()
        let composed: [String: StoredValue] = ["caf\u{E9}": .int(1), "z": .int(2)]
        let decomposed: [String: StoredValue] = ["cafe\u{301}": .int(1), "z": .int(3)]
        _ = try StoredValueJSON.data(from: .dictionary(composed), keeping: StoredValueJSON.SourceText(), order: &order)
        let written = try StoredValueJSON.data(
            from: .dictionary(decomposed), keeping: StoredValueJSON.SourceText(), order: &order)
        #expect(written == (try StoredValueJSON.data(from: .dictionary(decomposed))))
    }

    /// A kept order naming `café` in NFC must not make a root that holds the NFD spelling
    /// (a key removed and added again with other scalars) be written with the old spelling.
    @Test func aReusedOrderWritesEachKeyAsTheRootSpellsIt() throws {
        var order = StoredValueJSON.KeyOrder()
        let composed: [String: StoredValue] = ["caf\u{E9}": .int(1), "z": .int(2)]
        let decomposed: [String: StoredValue] = ["cafe\u{301}": .int(1), "z": .int(2)]
        _ = try StoredValueJSON.data(from: .dictionary(composed), keeping: StoredValueJSON.SourceText(), order: &order)
        let written = try StoredValueJSON.data(
            from: .dictionary(decomposed), keeping: StoredValueJSON.SourceText(), order: &order)
        #expect(written == (try StoredValueJSON.data(from: .dictionary(decomposed))))
        #expect(String(decoding: written, as: UTF8.self).unicodeScalars.contains("\u{301}"))
    }

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
