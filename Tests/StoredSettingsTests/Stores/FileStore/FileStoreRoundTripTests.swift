import Foundation
import StoredSettings
import Testing

/// Every value reads back exactly, in JSON, XML and binary property lists, across a reopen.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreRoundTripTests {
    enum Kind: String, CaseIterable, Sendable { case json, xmlPropertyList, binaryPropertyList }

    /// A store of `kind` in `folder`; a binary property list starts as an existing binary file.
    static func store(_ kind: Kind, in folder: ScratchFolder) throws -> FileStore {
        switch kind {
        case .json: return try FileStore(url: folder.file("settings.json"), options: quietOptions)
        case .xmlPropertyList: return try FileStore(url: folder.file("settings.plist"), options: quietOptions)
        case .binaryPropertyList:
            let url = folder.file("settings.plist")
            try PropertyListSerialization.data(fromPropertyList: ["seed": true], format: .binary, options: 0).write(
                to: url)
            return try FileStore(url: url, options: quietOptions)
        }
    }

    static let doubles: [Double] = [
        0.1, -0.0, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.leastNormalMagnitude, 1.0 / 3.0, 1e21,
        123456789.125,
    ]
    static let dates: [Date] = [
        Date(timeIntervalSinceReferenceDate: 123_456.789_012_345_678),
        Date(timeIntervalSinceReferenceDate: -0.000_001),
        Date(timeIntervalSince1970: 1_700_000_000),
        Date(timeIntervalSinceReferenceDate: 0.1 + 0.2),
    ]

    @Test(arguments: Kind.allCases)
    func scalarsRoundTripExactly(_ kind: Kind) throws {
        let folder = try ScratchFolder()
        let store = try Self.store(kind, in: folder)
        try store.batch { batch in
            for (index, number) in Self.doubles.enumerated() { batch["double\(index)"] = .double(number) }
            for (index, date) in Self.dates.enumerated() { batch["date\(index)"] = date.storedValue() }
            batch["int.min"] = .int(.min)
            batch["int.max"] = .int(.max)
            batch["uint.max"] = UInt64.max.storedValue()
            batch["emoji"] = .string("👩‍💻 é \u{1F600} <&> \"q\" \\ \r\n\t")
            batch["data"] = .data(Data([0, 1, 2, 255]))
            batch["empty data"] = .data(Data())
            batch["nested"] = .dictionary(["list": .array([.bool(true), .int(-1), .dictionary([:]), .array([])])])
        }
        let reopened = try FileStore(url: store.url, options: quietOptions)
        for (index, number) in Self.doubles.enumerated() {
            guard case .double(let read)? = reopened.value(forKey: "double\(index)") else {
                Issue.record("double\(index) is \(String(describing: reopened.value(forKey: "double\(index)")))")
                continue
            }
            #expect(read.bitPattern == number.bitPattern, "\(number) read back as \(read)")
        }
        for (index, date) in Self.dates.enumerated() {
            let read = try Date(storedValue: try #require(reopened.value(forKey: "date\(index)")))
            #expect(read.timeIntervalSinceReferenceDate.bitPattern == date.timeIntervalSinceReferenceDate.bitPattern)
        }
        #expect(reopened.value(forKey: "int.min") == .int(.min))
        #expect(reopened.value(forKey: "int.max") == .int(.max))
        #expect(try UInt64(storedValue: try #require(reopened.value(forKey: "uint.max"))) == .max)
        #expect(reopened.value(forKey: "emoji") == .string("👩‍💻 é \u{1F600} <&> \"q\" \\ \r\n\t"))
        #expect(try Data(storedValue: try #require(reopened.value(forKey: "data"))) == Data([0, 1, 2, 255]))
        #expect(try Data(storedValue: try #require(reopened.value(forKey: "empty data"))) == Data())
        #expect(
            reopened.value(forKey: "nested")
                == .dictionary(["list": .array([.bool(true), .int(-1), .dictionary([:]), .array([])])]))
    }

    @Test func nulCharactersRoundTripInJSONAndBinaryPropertyLists() throws {
        for kind in [Kind.json, .binaryPropertyList] {
            let folder = try ScratchFolder()
            let store = try Self.store(kind, in: folder)
            try store.setValue(.string("a\u{0}b"), forKey: "nul")
            #expect(
                try FileStore(url: store.url, options: quietOptions).value(forKey: "nul") == .string("a\u{0}b"),
                "\(kind)")
        }
    }

    @Test func nulCharacterInAnXMLPropertyListIsAnEncodingFailure() throws {
        let folder = try ScratchFolder()
        let store = try Self.store(.xmlPropertyList, in: folder)
        try store.setValue(.int(1), forKey: "a")
        let before = try Data(contentsOf: store.url)
        let error = try #require(throws: StorageError.self) { try store.setValue(.string("a\u{0}b"), forKey: "nul") }
        #expect(error.code == .encodingFailed)
        #expect(error.key == "nul")
        #expect(try Data(contentsOf: store.url) == before)
        #expect(store.value(forKey: "nul") == nil)
    }

    @Test func propertyListKeepsItsEncoding() throws {
        for kind in [Kind.xmlPropertyList, .binaryPropertyList] {
            let folder = try ScratchFolder()
            let store = try Self.store(kind, in: folder)
            try store.setValue(.int(1), forKey: "a")
            let isBinary = try Data(contentsOf: store.url).starts(with: Array("bplist".utf8))
            #expect(isBinary == (kind == .binaryPropertyList), "\(kind)")
        }
    }

    @Test func jsonIsPrettySortedAndEndsWithANewline() throws {
        let folder = try ScratchFolder()
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        try store.batch { batch in
            batch["b"] = .int(2)
            batch["a"] = .array([.bool(true)])
        }
        let text = String(decoding: try Data(contentsOf: store.url), as: UTF8.self)
        #expect(text == "{\n  \"a\": [\n    true\n  ],\n  \"b\": 2\n}\n")
    }
}
