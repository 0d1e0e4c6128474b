import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// Keys that differ as Unicode scalars but are canonically equivalent (so Swift's `String ==`
/// calls them equal) are never merged: a file holding both is refused naming both, and a write
/// of one next to the other is refused.
@Suite(.timeLimit(TestScale.hangGuard))
struct CanonicalKeyTests {
    /// `Å` as U+00C5 and as U+212B (ANGSTROM SIGN); `café` in NFC and NFD.
    static let pairs: [(String, String)] = [("\u{00C5}", "\u{212B}"), ("caf\u{E9}", "cafe\u{301}")]

    static func codePoints(_ key: String) -> String {
        key.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true).leftPadded(to: 4) }.joined(
            separator: " ")
    }

    static func jsonEscaped(_ key: String) -> String {
        key.unicodeScalars.map { $0.isASCII ? String($0) : "\\u" + String($0.value, radix: 16).leftPadded(to: 4) }
            .joined()
    }

    @Test(arguments: pairs)
    func aJSONObjectWithEquivalentKeysIsRefusedNamingBoth(first: String, second: String) throws {
        let json = "{\"\(Self.jsonEscaped(first))\": 1, \"\(Self.jsonEscaped(second))\": 2}"
        let error = try #require(throws: StorageError.self) { try StoredValueJSON.parse(Data(json.utf8)) }
        #expect(error.code == .dataCorrupted)
        #expect(error.description.contains(Self.codePoints(first)), "\(error)")
        #expect(error.description.contains(Self.codePoints(second)), "\(error)")
    }

    @Test func aNestedJSONObjectWithEquivalentKeysIsRefused() throws {
        let json = #"{"profile": {"\u00c5": 1, "\u212b": 2}}"#
        let error = try #require(throws: StorageError.self) { try StoredValueJSON.parse(Data(json.utf8)) }
        #expect(error.code == .dataCorrupted)
        #expect(error.codingPath == ["profile"])
    }

    @Test func aJSONFileWithEquivalentKeysIsRefusedAndKeptAsItIs() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let data = Data(#"{"\u00c5": 1, "\u212b": 2}"#.utf8)
        try data.write(to: url)
        let error = try #require(throws: StorageError.self) { try FileStore(url: url, options: quietOptions) }
        #expect(error.code == .dataCorrupted)
        #expect(error.location == url.path)
        #expect(try Data(contentsOf: url) == data)
    }

    @Test(arguments: ["xml", "binary"])
    func aPropertyListWithEquivalentKeysIsRefusedNamingBoth(encoding: String) throws {
        let data: Data
        if encoding == "xml" {
            data = Data(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0">
                <dict><key>\u{00C5}</key><integer>1</integer><key>\u{212B}</key><integer>2</integer></dict>
                </plist>

                """.utf8)
        } else {
            // Written by hand: Foundation on Linux merges the two keys before it writes a list.
            // A dictionary (object 0) of the UTF-16 strings U+00C5 and U+212B (1, 2) to the
            // integers 1 and 2 (3, 4), then the offset table and the trailer.
            data = Data(
                Array("bplist00".utf8) + [
                    0xD2, 1, 2, 3, 4, 0x61, 0x00, 0xC5, 0x61, 0x21, 0x2B, 0x10, 1, 0x10, 2,
                    8, 13, 16, 19, 21,
                    0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 23,
                ])
        }
        let error = try #require(throws: StorageError.self) { try PropertyListValue.parseFile(data) }
        #expect(error.code == .dataCorrupted)
        #expect(error.description.contains("U+00C5"), "\(error)")
        #expect(error.description.contains("U+212B"), "\(error)")
    }

    static func xml(_ body: String) -> Data {
        Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n".utf8)
    }

    @Test func anXMLCharacterReferenceDoesNotHideAnEquivalentKey() throws {
        let data = Self.xml(
            "<dict><key>&#xC5;</key><integer>1</integer><!-- <dict> --><key>&#8491;</key><integer>2</integer></dict>")
        let error = try #require(throws: StorageError.self) { try PropertyListValue.parseFile(data) }
        #expect(error.code == .dataCorrupted)
    }

    @Test func equivalentKeysInDifferentDictionariesAreRead() throws {
        let data = Self.xml(
            """
            <dict><key>a</key><dict><key>\u{00C5}</key><integer>1</integer></dict>\
            <key>b</key><array><dict/><dict><key>\u{212B}</key><integer>2</integer></dict></array>\
            <key>\u{212B}</key><integer>3</integer></dict>
            """)
        let parsed = try PropertyListValue.parseFile(data)
        #expect(parsed.value.depth == 3)
    }

    @Test(arguments: pairs)
    func aFileStoreRefusesAKeyEquivalentToADifferentExistingKey(first: String, second: String) throws {
        let store = try TemporaryFileStore()
        try store.setValue(.int(1), forKey: first)
        let error = try #require(throws: StorageError.self) { try store.setValue(.int(2), forKey: second) }
        #expect(error.code == .invalidKey)
        #expect(error.description.contains(Self.codePoints(first)), "\(error)")
        #expect(error.description.contains(Self.codePoints(second)), "\(error)")
        let reopened = try store.reopened()
        #expect(reopened.value(forKey: first) == .int(1))
        #expect(reopened.keys().map { Array($0.unicodeScalars) } == [Array(first.unicodeScalars)])
        // The key as stored still works.
        try store.setValue(.int(3), forKey: first)
        #expect(try store.reopened().value(forKey: first) == .int(3))
    }

    @Test func anInMemoryStoreRefusesAKeyEquivalentToADifferentExistingKey() throws {
        let store = InMemoryStore(["\u{00C5}": .int(1)])
        #expect(throws: StorageError.self) { try store.setValue(.int(2), forKey: "\u{212B}") }
        #expect(store.value(forKey: "\u{00C5}") == .int(1))
    }

    /// Not even a write of the value the other key holds, or a removal, passes as "nothing to
    /// change": either would act on the other key.
    @Test(arguments: pairs)
    func anIdenticalWriteOrARemovalUnderAnEquivalentKeyIsRefused(first: String, second: String) throws {
        let memory = InMemoryStore()
        let file = try TemporaryFileStore()
        for store in [memory, file] as [any Storable] {
            try store.setValue(.int(1), forKey: first)
            #expect(throws: StorageError.self, "\(type(of: store))") { try store.setValue(.int(1), forKey: second) }
            #expect(throws: StorageError.self, "\(type(of: store))") { try store.setValue(nil, forKey: second) }
            #expect(store.value(forKey: first) == .int(1), "\(type(of: store))")
        }
        #expect(try file.reopened().keys().map { Array($0.unicodeScalars) } == [Array(first.unicodeScalars)])
    }

    @Test(arguments: pairs)
    func aUserDefaultsSuiteRefusesAKeyEquivalentToADifferentStoredKey(first: String, second: String) throws {
        let suite = FileManager.default.temporaryDirectory.appendingPathComponent(
            "StoredSettingsTests-\(UUID().uuidString)"
        ).path
        let store = try UserDefaultsStore(suiteAtPath: suite)
        defer { store.defaults.removePersistentDomain(forName: suite) }
        try store.setValue(.int(1), forKey: first)
        let error = try #require(throws: StorageError.self) { try store.setValue(.int(2), forKey: second) }
        #expect(error.code == .invalidKey)
        #expect(
            error.description.contains(Self.codePoints(first)) && error.description.contains(Self.codePoints(second)),
            "\(error)")
        #expect(store.value(forKey: first) == .int(1))
        // The same spelling is an ordinary write.
        try store.setValue(.int(3), forKey: first)
        #expect(store.value(forKey: first) == .int(3))
    }
}
