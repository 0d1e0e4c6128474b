import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// XML 1.0 cannot carry NUL, the other C0 controls except tab, line feed and carriage return,
/// U+FFFE or U+FFFF, not even escaped. Every medium written as XML refuses them with
/// `.encodingFailed` and keeps what it held; binary property lists and JSON keep them.
@Suite(.timeLimit(TestScale.hangGuard))
struct XMLCharacterTests {
    /// Every character XML 1.0 leaves out that a Swift string can hold.
    static let refused: [UInt32] = Array(0x00...0x08) + [0x0B, 0x0C] + Array(0x0E...0x1F) + [0xFFFE, 0xFFFF]

    /// Characters at the edges of what XML carries: kept exactly.
    static let kept: [UInt32] = [0x09, 0x0A, 0x0D, 0x20, 0x7F, 0x85, 0x9F, 0xD7FF, 0xE000, 0xFFFD, 0x10000, 0x10FFFF]

    static func text(_ codePoint: UInt32) -> String {
        "a" + String(Character(Unicode.Scalar(codePoint)!)) + "b"
    }

    /// The shapes a character can arrive in: a string value, a string inside an array, a
    /// dictionary key inside a value.
    static func shapes(_ codePoint: UInt32) -> [StoredValue] {
        let text = text(codePoint)
        return [.string(text), .array([.int(1), .string(text)]), .dictionary(["outer": .dictionary([text: .int(1)])])]
    }

    @Test(arguments: refused)
    func xmlPropertyListFileRefusesCharacterAndKeepsFile(codePoint: UInt32) throws {
        let store = try TemporaryFileStore(fileName: "settings.plist")
        try store.setValue(.string("previous"), forKey: "value")
        let before = try Data(contentsOf: store.url)
        for shape in Self.shapes(codePoint) {
            let error = try #require(throws: StorageError.self) { try store.setValue(shape, forKey: "value") }
            #expect(error.code == .encodingFailed)
            #expect(error.key == "value")
            #expect(
                error.description.contains("U+\(String(codePoint, radix: 16, uppercase: true).leftPadded(to: 4))"),
                "\(error)")
            #expect(store.value(forKey: "value") == .string("previous"))
            #expect(try Data(contentsOf: store.url) == before)
        }
    }

    @Test(arguments: refused)
    func userDefaultsRefusesCharacterAndKeepsPreviousValue(codePoint: UInt32) throws {
        let name = FileManager.default.temporaryDirectory.appendingPathComponent(
            "XMLCharacterTests-\(UUID().uuidString)"
        ).path
        let store = try UserDefaultsStore(suiteAtPath: name)
        defer { store.defaults.removePersistentDomain(forName: name) }
        try store.setValue(.string("previous"), forKey: "value")
        for shape in Self.shapes(codePoint) {
            let error = try #require(throws: StorageError.self) { try store.setValue(shape, forKey: "value") }
            #expect(error.code == .encodingFailed)
            #expect(try UserDefaultsStore(suiteAtPath: name).value(forKey: "value") == .string("previous"))
        }
    }

    @Test func nestedKeyErrorNamesWhereTheKeyIs() throws {
        let store = try TemporaryFileStore(fileName: "settings.plist")
        let error = try #require(throws: StorageError.self) {
            try store.setValue(.dictionary(["outer": .dictionary(["a\u{1}b": .int(1)])]), forKey: "value")
        }
        #expect(error.key == "value")
        #expect(error.codingPath == ["outer", "a\u{1}b"])
        #expect(
            error.description.hasSuffix(
                ": an XML property list cannot hold the character U+0001 in a dictionary key; use a binary property list or JSON."
            ))
        #expect(!error.description.unicodeScalars.contains("\u{1}"))
    }

    @Test func xmlPropertyListKeepsTheCharactersXMLCarries() throws {
        let store = try TemporaryFileStore(fileName: "settings.plist")
        let value = StoredValue.dictionary(
            Dictionary(uniqueKeysWithValues: Self.kept.map { (Self.text($0), StoredValue.string(Self.text($0))) }))
        try store.setValue(value, forKey: "value")
        #expect(try store.reopened().value(forKey: "value") == value)
        #expect(try XMLWellFormedness.check(Data(contentsOf: store.url)) == nil)
    }

    @Test(arguments: [0x01, 0x1F, 0xFFFE] as [UInt32])
    func binaryPropertyListAndJSONKeepTheCharacter(codePoint: UInt32) throws {
        let binary = try TemporaryFileStore(fileName: "settings.plist")
        try PropertyListSerialization.data(fromPropertyList: ["seed": true], format: .binary, options: 0).write(
            to: binary.url)
        let json = try TemporaryFileStore(fileName: "settings.json")
        for store in [try binary.reopened(), json.fileStore] {
            for shape in Self.shapes(codePoint) {
                try store.setValue(shape, forKey: "value")
                #expect(try FileStore(url: store.url).value(forKey: "value") == shape)
            }
        }
    }
}

/// A character reference XML 1.0 forbids (`&#1;`), which Foundation's parser reads anyway:
/// the file is refused as it is opened, naming the setting and the file, since no write could
/// hold the value again; the file is left as it is.
@Suite(.timeLimit(TestScale.hangGuard))
struct XMLCharacterReferenceTests {
    static func file(_ body: String) -> Data {
        Data(
            ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>"
                + "<key>fine</key><integer>1</integer>\(body)</dict></plist>\n").utf8)
    }

    static let cases: [(String, String)] = [
        ("k", "<key>k</key><string>a&#1;b</string>"),
        ("k", "<key>k</key><array><string>&#x1F;</string></array>"),
        ("k", "<key>k</key><dict><key>&#xFFFE;</key><true/></dict>"),
        ("a&#1;", "<key>a&#1;</key><true/>"),
    ]

    @Test(arguments: cases)
    func aFileHoldingOneIsRefusedNamingTheSettingAndTheFile(key: String, body: String) throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.plist")
        let data = Self.file(body)
        try data.write(to: url)
        let error = try #require(throws: StorageError.self) { try FileStore(url: url, options: quietOptions) }
        #expect(error.code == .dataCorrupted, "\(error)")
        #expect(error.location == url.path, "\(error)")
        if key == "k" {
            #expect(error.key == "k", "\(error)")
        }
        #expect(error.description.contains("an XML property list cannot hold the character"), "\(error)")
        #expect(try Data(contentsOf: url) == data)
    }
}

/// Checks bytes with the platform's XML parser (libxml2 on Linux), which applies XML 1.0's
/// character rules that `PropertyListSerialization` does not.
final class XMLWellFormedness: NSObject, XMLParserDelegate {
    private var error: (any Error)?

    /// `nil` when `data` is well-formed XML, else the parser's error.
    static func check(_ data: Data) -> (any Error)? {
        let parser = XMLParser(data: data)
        let delegate = XMLWellFormedness()
        parser.delegate = delegate
        if parser.parse() { return nil }
        return parser.parserError ?? delegate.error ?? CocoaError(.propertyListReadCorrupt)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) { error = parseError }
}
