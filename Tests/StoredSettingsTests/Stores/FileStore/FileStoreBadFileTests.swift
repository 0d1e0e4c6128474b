import Foundation
import StoredSettings
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Files that do not parse, or are odd, give their documented result and are never changed.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreBadFileTests {
    struct BadFile: CustomTestStringConvertible, Sendable {
        var name: String
        var fileName = "settings.json"
        var bytes: @Sendable () -> Data
        /// The error code, or `nil` when the file opens as an empty store.
        var expected: StorageError.Code?
        var testDescription: String { name }
    }

    static let cases: [BadFile] = [
        BadFile(
            name: "truncated JSON", bytes: { Data("{\n  \"a\": 1,\n  \"b\": [1, 2".utf8) }, expected: .dataCorrupted),
        BadFile(name: "zero bytes", bytes: { Data() }, expected: nil),
        BadFile(
            name: "random bytes", bytes: { Data((0..<4096).map { _ in UInt8.random(in: 0...255) }) },
            expected: .dataCorrupted),
        BadFile(
            name: "invalid UTF-8", bytes: { Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D]) },
            expected: .dataCorrupted),
        BadFile(name: "JSON array root", bytes: { Data("[1, 2, 3]\n".utf8) }, expected: .dataCorrupted),
        BadFile(name: "JSON null", bytes: { Data("{\"a\": null}".utf8) }, expected: .dataCorrupted),
        BadFile(name: "100,000 nested arrays", bytes: { nested("[", "]", 100_000) }, expected: .nestingTooDeep),
        BadFile(name: "100,000 nested objects", bytes: { nested("{\"a\":", "}", 100_000) }, expected: .nestingTooDeep),
        BadFile(
            name: "65 nested arrays in a value", bytes: { nested("{\"a\":", "}", 1, inner: nested("[", "]", 64)) },
            expected: .nestingTooDeep),
        BadFile(
            name: "64 nested containers are fine", bytes: { nested("{\"a\":", "}", 1, inner: nested("[", "]", 63)) },
            expected: nil),
        BadFile(
            name: "XML property list, 100,000 nested arrays", fileName: "settings.plist",
            bytes: {
                nested(
                    "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>a</key>",
                    "</dict></plist>", 1, inner: nested("<array>", "</array>", 100_000))
            }, expected: .nestingTooDeep),
        BadFile(
            name: "binary property list, 100 nested arrays", fileName: "settings.plist",
            bytes: {
                var value: Any = [1]
                for _ in 0..<100 { value = [value] }
                return
                    (try? PropertyListSerialization.data(fromPropertyList: ["a": value], format: .binary, options: 0))
                    ?? Data()
            }, expected: .nestingTooDeep),
        BadFile(
            name: "binary property list that contains itself", fileName: "settings.plist",
            bytes: { selfReferencingBinaryPropertyList() }, expected: .nestingTooDeep),
        BadFile(
            name: "binary property list with an object offset beyond Int.max", fileName: "settings.plist",
            bytes: { binaryPropertyListWithHugeOffset() }, expected: .dataCorrupted),
        BadFile(
            name: "XML property list with an array root", fileName: "settings.plist",
            bytes: {
                Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><array/></plist>".utf8)
            }, expected: .dataCorrupted),
        BadFile(
            name: "truncated property list", fileName: "settings.plist",
            bytes: {
                Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict><key>a</key><integ".utf8)
            }, expected: .dataCorrupted),
    ]

    @Test(arguments: cases)
    func badFileGivesDocumentedResultAndStaysIntact(_ bad: BadFile) throws {
        let folder = try ScratchFolder()
        let url = folder.file(bad.fileName)
        let bytes = bad.bytes()
        try bytes.write(to: url)
        if let expected = bad.expected {
            let error = try #require(throws: StorageError.self) { try FileStore(url: url, options: quietOptions) }
            #expect(error.code == expected, "\(error)")
            #expect(error.location == url.path)
        } else {
            let store = try FileStore(url: url, options: quietOptions)
            #expect(store.keys().count == (bytes.isEmpty ? 0 : 1))
        }
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func corruptJSONErrorNamesLineAndColumn() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try Data("{\n  \"a\": 1,\n  \"b\": tru\n}\n".utf8).write(to: url)
        let error = try #require(throws: StorageError.self) { try FileStore(url: url, options: quietOptions) }
        #expect(error.code == .dataCorrupted)
        #expect(error.message?.contains("line 3, column 8") == true, "\(error)")
    }

    @Test func writeDoesNotOverwriteAFileCorruptedByAnotherProcess() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(.int(1), forKey: "a")
        let garbage = Data("{ broken".utf8)
        try garbage.write(to: url)
        let error = try #require(throws: StorageError.self) { try store.setValue(.int(2), forKey: "a") }
        #expect(error.code == .dataCorrupted)
        #expect(try Data(contentsOf: url) == garbage)
        #expect(store.value(forKey: "a") == .int(1))
    }

    @Test func sparseGigabyteFileIsRefusedWithoutReadingIt() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let fd = open(url.path, O_WRONLY | O_CREAT, 0o600)
        #expect(fd >= 0)
        #expect(ftruncate(fd, 1 << 30) == 0)
        close(fd)
        let error = try #require(throws: StorageError.self) { try FileStore(url: url, options: quietOptions) }
        #expect(error.code == .tooLarge)
        var info = stat()
        #expect(stat(url.path, &info) == 0 && info.st_size == 1 << 30)
    }

    @Test func moveAsidePolicyKeepsTheBytesAndStartsEmpty() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let garbage = Data("not json at all".utf8)
        try garbage.write(to: url)
        let (store, reports) = try reportedErrors {
            try FileStore(url: url, options: FileStore.Options(corruptFilePolicy: .moveAside, changeCheckInterval: nil))
        }
        #expect(store.keys().isEmpty)
        let aside = try folder.names().filter { $0.hasPrefix("settings.json.corrupt-") }
        #expect(aside.count == 1)
        #expect(try Data(contentsOf: folder.file(aside[0])) == garbage)
        #expect(reports.map(\.code) == [.dataCorrupted])
        try store.setValue(.bool(true), forKey: "fresh")
        #expect(try FileStore(url: url, options: quietOptions).value(forKey: "fresh") == .bool(true))
    }

    /// Opening neither lists the folder nor waits for a writer: the stale file stays until
    /// the next write, which removes it.
    @Test func staleTemporaryFilesAreLeftByOpeningAndRemovedByTheNextWrite() throws {
        let folder = try ScratchFolder()
        try Data("{\"a\": 1}".utf8).write(to: folder.file("settings.json"))
        try Data("{\"a\": ".utf8).write(to: folder.file(".settings.json.tmp-999999-abc"))
        let store = try FileStore(url: folder.file("settings.json"), options: quietOptions)
        #expect(store.value(forKey: "a") == .int(1))
        #expect(try folder.names() == [".settings.json.tmp-999999-abc", "settings.json"])
        try store.setValue(.int(2), forKey: "a")
        #expect(try folder.names() == ["settings.json", "settings.json.lock"])
    }

    @Test func writeOverTheSizeLimitIsRefused() throws {
        let folder = try ScratchFolder()
        let store = try FileStore(
            url: folder.file("settings.json"),
            options: FileStore.Options(maximumFileSize: 1000, changeCheckInterval: nil))
        try store.setValue(.int(1), forKey: "small")
        let error = try #require(throws: StorageError.self) {
            try store.setValue(.string(String(repeating: "x", count: 2000)), forKey: "big")
        }
        #expect(error.code == .tooLarge)
        #expect(store.value(forKey: "big") == nil)
    }
}

/// `open` × count, then `inner`, then `close` × count.
private func nested(_ open: String, _ close: String, _ count: Int, inner: Data = Data()) -> Data {
    var data = Data(String(repeating: open, count: count).utf8)
    data.append(inner)
    data.append(Data(String(repeating: close, count: count).utf8))
    return data
}

/// A binary property list whose one offset-table entry is 0xFF × 8: beyond `Int.max`.
private func binaryPropertyListWithHugeOffset() -> Data {
    var bytes = Array("bplist00".utf8)
    bytes += [0xD0] // object 0 at offset 8: an empty dictionary
    let table = bytes.count // offset table: one 8-byte offset
    bytes += [UInt8](repeating: 0xFF, count: 8)
    bytes += [0, 0, 0, 0, 0, 0] // trailer: unused, sort version
    bytes += [8, 1] // offset size, reference size
    bytes += [0, 0, 0, 0, 0, 0, 0, 1] // 1 object
    bytes += [0, 0, 0, 0, 0, 0, 0, 0] // top object 0
    bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
    return Data(bytes)
}

/// A binary property list whose root array holds itself.
private func selfReferencingBinaryPropertyList() -> Data {
    var bytes = Array("bplist00".utf8)
    bytes += [0xA1, 0x00] // object 0 at offset 8: array of 1, reference 0
    let table = bytes.count // offset table: one 1-byte offset
    bytes += [0x08]
    bytes += [0, 0, 0, 0, 0, 0] // trailer: unused, sort version
    bytes += [1, 1] // offset size, reference size
    bytes += [0, 0, 0, 0, 0, 0, 0, 1] // 1 object
    bytes += [0, 0, 0, 0, 0, 0, 0, 0] // top object 0
    bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
    return Data(bytes)
}
