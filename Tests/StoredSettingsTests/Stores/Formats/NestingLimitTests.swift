import Foundation
import StoredSettings
import Testing

/// One nesting limit, counting the file's root object as level 1, in every format: what a
/// store writes it opens again, and what it would not open it refuses to write.
@Suite(.timeLimit(TestScale.hangGuard))
struct NestingLimitTests {
    enum Medium: String, CaseIterable, Sendable {
        case json, xml, binary
    }

    /// Arrays nested `containers` deep with a number at the bottom.
    static func nested(containers: Int) -> StoredValue {
        var value = StoredValue.int(1)
        for _ in 0..<containers { value = .array([value]) }
        return value
    }

    /// A fresh settings file of `medium` holding one key.
    static func seededFile(_ medium: Medium, in folder: ScratchFolder) throws -> URL {
        let url = folder.file(medium == .json ? "settings.json" : "settings.plist")
        let root = StoredValue.dictionary(["seed": .bool(true)])
        let data =
            switch medium {
            case .json: try StoredValueJSON.data(from: root)
            case .xml: try PropertyListValue.fileData(from: root, encoding: .xml)
            case .binary: try PropertyListValue.fileData(from: root, encoding: .binary)
            }
        try data.write(to: url)
        return url
    }

    @Test(arguments: Medium.allCases, [63, 64, 65])
    func aStoreReopensWhatItWritesAndRefusesToWriteDeeper(_ medium: Medium, levels: Int) throws {
        let folder = try ScratchFolder()
        let url = try Self.seededFile(medium, in: folder)
        let store = try FileStore(url: url, options: quietOptions)
        // The root object is level 1.
        let value = Self.nested(containers: levels - 1)
        if levels <= PropertyListValue.maximumDepth {
            try store.setValue(value, forKey: "deep")
            let reopened = try FileStore(url: url, options: quietOptions)
            #expect(reopened.value(forKey: "deep") == value)
        } else {
            let before = try Data(contentsOf: url)
            let error = try #require(throws: StorageError.self) { try store.setValue(value, forKey: "deep") }
            #expect(error.code == .nestingTooDeep, "\(error)")
            #expect(try Data(contentsOf: url) == before)
        }
    }

    @Test(arguments: Medium.allCases, [63, 64, 65])
    func aFileIsReadUpToTheLimit(_ medium: Medium, levels: Int) throws {
        let root = StoredValue.dictionary(["deep": Self.nested(containers: levels - 1)])
        let data: Data
        switch medium {
        case .json:
            data = Data(
                ("{\"deep\": " + String(repeating: "[", count: levels - 1) + "1"
                    + String(repeating: "]", count: levels - 1) + "}").utf8)
        case .xml:
            data = Data(
                ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>deep</key>"
                    + String(repeating: "<array>", count: levels - 1) + "<integer>1</integer>"
                    + String(repeating: "</array>", count: levels - 1) + "</dict></plist>\n").utf8)
        case .binary:
            var object: Any = 1
            for _ in 0..<(levels - 1) { object = [object] }
            data = try PropertyListSerialization.data(fromPropertyList: ["deep": object], format: .binary, options: 0)
        }
        let parse = { () throws -> StoredValue in
            medium == .json ? try StoredValueJSON.parse(data) : try PropertyListValue.parseFile(data).value
        }
        if levels <= PropertyListValue.maximumDepth {
            #expect(try parse() == root)
        } else {
            let error = try #require(throws: StorageError.self) { try parse() }
            #expect(error.code == .nestingTooDeep, "\(error)")
        }
    }
}
