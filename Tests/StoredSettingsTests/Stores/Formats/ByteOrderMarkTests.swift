import Foundation
import StoredSettings
import Testing

/// U+FEFF at the start of a string: Foundation's XML property-list parser drops it (even
/// written as `&#xFEFF;`), so where a file or domain would lose it, the write is refused; where
/// it survives (JSON, binary property lists, later in a string), it is kept.
@Suite(.timeLimit(TestScale.hangGuard))
struct ByteOrderMarkTests {
    @Test func anXMLPropertyListRefusesAStringStartingWithFEFFAndKeepsTheFile() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.plist")
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(.string("light"), forKey: "theme")
        let before = try Data(contentsOf: url)
        let error = try #require(throws: StorageError.self) {
            try store.setValue(.string("\u{FEFF}dark"), forKey: "theme")
        }
        #expect(error.code == .encodingFailed)
        #expect(error.key == "theme")
        #expect(error.description.contains("U+FEFF"), "\(error)")
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func anXMLPropertyListRefusesAKeyStartingWithFEFFSoItCannotOverwriteAnother() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.plist")
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(.string("light"), forKey: "theme")
        #expect(throws: StorageError.self) { try store.setValue(.string("dark"), forKey: "\u{FEFF}theme") }
        #expect(throws: StorageError.self) {
            try store.setValue(.dictionary(["\u{FEFF}name": .string("x")]), forKey: "profile")
        }
        let reopened = try FileStore(url: url, options: quietOptions)
        #expect(reopened.value(forKey: "theme") == .string("light"))
        #expect(reopened.keys() == ["theme"])
    }

    @Test(arguments: ["settings.json", "settings.binary.plist"])
    func formatsThatKeepFEFFRoundTripIt(name: String) throws {
        let folder = try ScratchFolder()
        let url = folder.file(name)
        if name.hasSuffix(".binary.plist") {
            try PropertyListSerialization.data(fromPropertyList: [String: Any](), format: .binary, options: 0).write(
                to: url)
        }
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(.string("\u{FEFF}dark"), forKey: "\u{FEFF}theme")
        try store.setValue(.string("light"), forKey: "theme")
        let reopened = try FileStore(url: url, options: quietOptions)
        #expect(
            reopened.value(forKey: "\u{FEFF}theme").map { $0.description }
                == StoredValue.string("\u{FEFF}dark").description)
        #expect(
            Set(reopened.keys().map { Array($0.unicodeScalars) }) == [
                Array("\u{FEFF}theme".unicodeScalars), Array("theme".unicodeScalars),
            ])
    }

    @Test func anXMLPropertyListKeepsFEFFInsideAString() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.plist")
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(.string("a\u{FEFF}b"), forKey: "x\u{FEFF}y")
        let reopened = try FileStore(url: url, options: quietOptions)
        #expect(
            reopened.value(forKey: "x\u{FEFF}y").map { Array($0.description.unicodeScalars) }
                == Array(StoredValue.string("a\u{FEFF}b").description.unicodeScalars))
    }

    @Test func userDefaultsRefusesKeysAndStringsStartingWithFEFF() throws {
        let name = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ByteOrderMarkTests-\(UUID().uuidString)"
        ).path
        let store = try UserDefaultsStore(suiteAtPath: name)
        defer { store.defaults.removePersistentDomain(forName: name) }
        try store.setValue(.string("light"), forKey: "theme")
        #expect(throws: StorageError.self) { try store.setValue(.string("\u{FEFF}dark"), forKey: "theme") }
        #expect(throws: StorageError.self) { try store.setValue(.string("dark"), forKey: "\u{FEFF}theme") }
        #expect(throws: StorageError.self) { try store.setValue(.array([.string("\u{FEFF}x")]), forKey: "list") }
        #expect(store.value(forKey: "theme") == .string("light"))
    }
}
