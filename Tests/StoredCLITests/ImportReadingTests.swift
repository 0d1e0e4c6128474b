import Foundation
import StoredCLI
import StoredSettings
import StoredSettingsCommandLine
import Testing

/// The FILE of `import` is read as a settings file is: through the same parser and checks,
/// with the same nesting limit, refusing special files at once and files beyond the size limit.
@Suite(.timeLimit(.hangGuard))
struct ImportReadingTests {
    enum Medium: String, CaseIterable, Sendable {
        case json, xml, binary
    }

    /// A file whose root object holds `deep`: arrays nested so that the file is `levels` deep,
    /// its root counted.
    static func nestedFile(_ medium: Medium, levels: Int) throws -> Data {
        let inner = levels - 1
        switch medium {
        case .json:
            return Data(
                ("{\"deep\": " + String(repeating: "[", count: inner) + "1" + String(repeating: "]", count: inner)
                    + "}").utf8)
        case .xml:
            return Data(
                ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict><key>deep</key>"
                    + String(repeating: "<array>", count: inner) + "<integer>1</integer>"
                    + String(repeating: "</array>", count: inner) + "</dict></plist>\n").utf8)
        case .binary:
            var object: Any = 1
            for _ in 0..<inner { object = [object] }
            return try PropertyListSerialization.data(fromPropertyList: ["deep": object], format: .binary, options: 0)
        }
    }

    @Test(arguments: Medium.allCases, [63, 64, 65])
    func importReadsAFileAsDeepAsAStoreOpens(_ medium: Medium, levels: Int) throws {
        let folder = try TemporaryFolder()
        let data = try Self.nestedFile(medium, levels: levels)
        let file = folder.path("deep." + (medium == .json ? "json" : "plist"))
        try data.write(to: URL(fileURLWithPath: file))
        let target = folder.path("target.json")
        let opens = Result { try FileStore(url: URL(fileURLWithPath: file)) }
        let run = stored("import", target, file)
        if levels <= StoredValueJSON.maximumDepth {
            #expect((try? opens.get()) != nil, "a store refuses the \(levels)-level file")
            expectSuccess(run)
            let store = try FileStore(url: URL(fileURLWithPath: target))
            #expect(store.value(forKey: "deep")?.depth == levels - 1)
        } else {
            #expect((try? opens.get()) == nil, "a store opens the \(levels)-level file")
            expectFailure(run, .dataError)
            #expect(run.errors.contains("nesting deeper than 64 levels"), "\(run.errors)")
            #expect(folder.contents("target.json") == nil)
        }
    }

    @Test func aFIFOIsAnIOErrorAtOnce() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path("in.json")
        #expect(mkfifo(fifo, 0o600) == 0)
        let run = stored("import", folder.path("s.json"), fifo)
        expectFailure(run, .ioError)
        #expect(run.errors.contains("not a regular file but a FIFO"), "\(run.errors)")
        #expect(folder.contents("s.json") == nil)
    }

    @Test func aDeviceIsAnIOErrorAtOnce() throws {
        let folder = try TemporaryFolder()
        let run = stored("import", folder.path("s.json"), "/dev/zero")
        expectFailure(run, .ioError)
        #expect(run.errors.contains("not a regular file but a device"), "\(run.errors)")
        #expect(folder.contents("s.json") == nil)
    }

    @Test func aFileBeyondTheSizeLimitIsRefusedBeforeItIsRead() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("big.json")
        #expect(FileManager.default.createFile(atPath: file, contents: nil))
        #expect(truncate(file, off_t(FileStore.Options.defaultMaximumFileSize + 1)) == 0)
        let run = stored("import", folder.path("s.json"), file)
        expectFailure(run, .dataError)
        #expect(run.errors.contains("more than the limit"), "\(run.errors)")
        #expect(folder.contents("s.json") == nil)
    }

    @Test func standardInputBeyondTheSizeLimitIsRefused() throws {
        let folder = try TemporaryFolder()
        let input = String(repeating: " ", count: FileStore.Options.defaultMaximumFileSize) + "{}"
        let run = stored("import", folder.path("s.json"), "-", input: input)
        expectFailure(run, .dataError)
        #expect(run.errors.contains("more than the limit"), "\(run.errors)")
        #expect(folder.contents("s.json") == nil)
    }
}
