import Foundation
import StoredSettings
import Testing

/// A property list may hold objects stored values have no form for (sets, UIDs, `null`, a key
/// that is not a string, a lone surrogate): each is refused as corrupt data naming the file,
/// never parsed into a crash or rewritten into another value.
@Suite(.timeLimit(TestScale.hangGuard))
struct PropertyListKindTests {
    /// A binary property list of `objects` (marker bytes each), the first at the top, with
    /// 1-byte offsets and references.
    static func binary(_ objects: [[UInt8]]) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let table = bytes.count
        bytes += offsets + [0, 0, 0, 0, 0, 0, 1, 1]
        for field in [UInt64(objects.count), 0, UInt64(table)] {
            bytes += (0..<8).reversed().map { UInt8(field >> ($0 * 8) & 0xFF) }
        }
        return Data(bytes)
    }

    /// `{"k": <value>}` with `value` given as its marker bytes and the objects it refers to
    /// (references count from 2: object 0 is the dictionary, 1 the key).
    static func dictionary(holding value: [UInt8], _ more: [[UInt8]] = []) -> Data {
        binary([[0xD1, 1, 2], [0x51, UInt8(ascii: "k")], value] + more)
    }

    /// `{"k": set(["x"])}`, 53 bytes: it made every reader crash inside Foundation's bridging.
    static let set = dictionary(holding: [0xC1, 3], [[0x51, UInt8(ascii: "x")]])

    @Test func storedReadRefusesASetAsCorruptDataNamingTheFile() async throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.plist")
        try Self.set.write(to: url)
        let stored = try #require(ProgramRun.storedPath)
        let read = try await ProgramRun.run(stored, ["read", url.path])
        #expect(read.signal == nil, "stored read crashed: \(read.errors)")
        #expect(read.exitCode == 65)
        #expect(read.errors.contains(url.path) && read.errors.contains("a set"), "\(read.errors)")

        let open = try await ChildProcess.launch(["read", url.path]).finish()
        #expect(open.exitCode != nil, "opening the file crashed a process: \(open.output)")
        #expect(open.output.contains("error dataCorrupted"), "\(open.output)")
        #expect(try Data(contentsOf: url) == Self.set)
    }

    /// `{"k": [set(["x"])]}`: a set inside an array.
    static let setInArray = binary([
        [0xD1, 1, 2], [0x51, UInt8(ascii: "k")], [0xA1, 3], [0xC1, 4], [0x51, UInt8(ascii: "x")],
    ])

    /// `stored import` parses its FILE with the store's parser, so the kind check covers it.
    @Test func storedImportRefusesASetInsideAnArrayAsCorruptData() async throws {
        let folder = try ScratchFolder()
        let file = folder.file("in.plist")
        try Self.setInArray.write(to: file)
        let target = folder.file("settings.json")
        let stored = try #require(ProgramRun.storedPath)
        let run = try await ProgramRun.run(stored, ["import", target.path, file.path])
        #expect(run.signal == nil, "stored import crashed: \(run.errors)")
        #expect(run.exitCode == 65, "\(run.errors)")
        #expect(run.errors.contains(file.path) && run.errors.contains("a set"), "\(run.errors)")
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    static let unsupported: [(String, Data)] = [
        ("a set", set),
        ("an ordered set", dictionary(holding: [0xB1, 3], [[0x51, UInt8(ascii: "x")]])),
        ("a UID", dictionary(holding: [0x80, 7])),
        ("a null", dictionary(holding: [0x00])),
        ("a fill byte", dictionary(holding: [0x0F])),
        ("an integer wider than 16 bytes", dictionary(holding: [0x15] + [UInt8](repeating: 1, count: 32))),
        ("an object of unknown kind 0x7", dictionary(holding: [0x71, UInt8(ascii: "x")])),
        ("an object of unknown kind 0xE", dictionary(holding: [0xE0])),
        ("a dictionary key is not a string", binary([[0xD1, 1, 2], [0x10, 7], [0x09]])),
        ("a lone UTF-16 surrogate", dictionary(holding: [0x62, 0x00, 0x61, 0xD8, 0x00])),
        (
            "an integer beyond 64 bits",
            dictionary(holding: [0x14] + [UInt8](repeating: 0, count: 7) + [1] + [UInt8](repeating: 0, count: 8))
        ),
        ("an integer beyond 64 bits", dictionary(holding: [0x14] + [UInt8](repeating: 0xFF, count: 16))),
        ("the key \"k\" twice", binary([[0xD2, 1, 1, 2, 2], [0x51, UInt8(ascii: "k")], [0x09]])),
        // An ASCII-marked key is ISO 8859-1 to Foundation: 0xC5 is U+00C5, equivalent to A + U+030A.
        (
            "canonically equivalent",
            binary([[0xD2, 1, 2, 3, 3], [0x51, 0xC5], [0x62, 0x00, 0x41, 0x03, 0x0A], [0x09]])
        ),
    ]

    /// Arrays that each hold the next one twice: 42 levels in a few hundred bytes expand to 2^42
    /// values, refused before Foundation builds them.
    @Test func aListOfSharedObjectsThatExpandsBeyondTheLimitIsRefused() throws {
        let levels = 42
        let data = Self.binary((0..<levels).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] } + [[0x10, 0]])
        let error = try #require(throws: StorageError.self) { try PropertyListValue.parseFile(data) }
        #expect(error.code == .tooLarge, "\(error)")
    }

    @Test func aSixteenByteIntegerWithinUInt64IsRead() throws {
        let data = Self.dictionary(
            holding: [0x14] + [UInt8](repeating: 0, count: 8) + [0x80] + [UInt8](repeating: 0, count: 7))
        #expect(try PropertyListValue.parseFile(data).value == .dictionary(["k": .string("9223372036854775808")]))
    }

    @Test(arguments: unsupported)
    func aKindStoredValuesCannotHoldIsRefused(kind: String, data: Data) throws {
        let error = try #require(throws: StorageError.self) { try PropertyListValue.parseFile(data) }
        #expect(error.code == .dataCorrupted)
        #expect(error.message?.contains(kind) == true, "\(error)")
    }

    @Test func aSurrogatePairIsReadAsOneCharacter() throws {
        let parsed = try PropertyListValue.parseFile(Self.dictionary(holding: [0x62, 0xD8, 0x3D, 0xDE, 0x00]))
        #expect(parsed.value == .dictionary(["k": .string("\u{1F600}")]))
    }

    /// A write to another key must not turn the lone surrogate into U+FFFD: the file is refused
    /// before anything is written, and stays as it was.
    @Test func aFileWithALoneSurrogateIsNeitherOpenedNorRewritten() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.plist")
        let data = Self.binary([[0xD2, 1, 2, 3, 4], [0x51, 0x6B], [0x61, 0xDC, 0x00], [0x51, 0x6F], [0x10, 1]])
        try data.write(to: url)
        let error = try #require(throws: StorageError.self) { try FileStore(url: url, options: quietOptions) }
        #expect(error.code == .dataCorrupted)
        #expect("\(error)".contains(url.path), "\(error)")
        #expect(try Data(contentsOf: url) == data)
    }

    /// Generated binary and XML lists of every kind, some damaged, parsed in a child process so
    /// that a crash is a failure of this test, not of the suite.
    @Test func generatedPropertyListsAreParsedOrRefusedWithoutCrashing() async throws {
        let count = TestScale.pick(quick: 20_000, full: 400_000)
        let child = try ChildProcess.launch(["fuzz-property-lists", "20261202", String(count)])
        let (exitCode, output) = await child.finish()
        #expect(exitCode == 0, "\(output)")
        #expect(output.hasPrefix("parsed "), "\(output)")
    }

    /// The same kinds of generated lists, and JSON texts, given to `stored import` as its FILE
    /// (named `-`, so the format is guessed from the bytes), in a child process.
    @Test func generatedImportFilesAreReadOrRefusedWithoutCrashing() async throws {
        let count = TestScale.pick(quick: 20_000, full: 400_000)
        let child = try ChildProcess.launch(["fuzz-import", "20261206", String(count)])
        let (exitCode, output) = await child.finish()
        #expect(exitCode == 0, "\(output)")
        #expect(output.hasPrefix("read "), "\(output)")
    }
}
