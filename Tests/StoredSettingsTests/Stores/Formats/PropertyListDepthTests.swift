import Foundation
import StoredSettings
import Testing

/// The nesting limit of property-list files holds however the file is written: comments
/// cannot hide a level, and very deep files are refused without crashing.
@Suite(.timeLimit(TestScale.hangGuard))
struct PropertyListDepthTests {
    static func xml(_ body: String) -> Data {
        Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(body)\n</plist>\n".utf8)
    }

    static func nested(_ levels: Int, open: String = "<array>") -> Data {
        xml(String(repeating: open, count: levels) + String(repeating: "</array>", count: levels))
    }

    @Test func aCommentedOutClosingTagDoesNotHideALevel() throws {
        let levels = PropertyListValue.maximumDepth + 6
        let data = Self.nested(levels, open: "<array><!--</array>-->")
        let error = try #require(throws: StorageError.self) { try PropertyListValue.parseFile(data) }
        #expect(error.code == .nestingTooDeep)
    }

    @Test func aListJustBeyondTheLimitIsTooDeep() throws {
        let error = try #require(throws: StorageError.self) {
            try PropertyListValue.parseFile(Self.nested(PropertyListValue.maximumDepth + 1))
        }
        #expect(error.code == .nestingTooDeep)
    }

    /// Below `PropertyListSerialization`'s own limit this package's limit applies; beyond it,
    /// the parser refuses the file, with the same code.
    @Test(arguments: [100, 1_000, 100_000])
    func aVeryDeepListIsRefusedWithoutCrashing(levels: Int) throws {
        let error = try #require(throws: StorageError.self) { try PropertyListValue.parseFile(Self.nested(levels)) }
        #expect(error.code == .nestingTooDeep, "\(error)")
    }

    @Test func aListAtTheLimitIsRead() throws {
        let parsed = try PropertyListValue.parseFile(Self.nested(PropertyListValue.maximumDepth))
        #expect(parsed.value.depth == PropertyListValue.maximumDepth)
    }

    @Test func aFileStoreRefusesTheCommentTrickAndKeepsTheFile() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.plist")
        let levels = PropertyListValue.maximumDepth + 6
        let body =
            "<dict><key>deep</key>" + String(repeating: "<array><!--</array>-->", count: levels)
            + String(repeating: "</array>", count: levels) + "</dict>"
        let data = Self.xml(body)
        try data.write(to: url)
        let error = try #require(throws: StorageError.self) { try FileStore(url: url, options: quietOptions) }
        #expect(error.code == .nestingTooDeep)
        #expect(try Data(contentsOf: url) == data)
    }
}
