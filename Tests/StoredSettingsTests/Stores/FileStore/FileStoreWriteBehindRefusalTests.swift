import Foundation
import StoredSettings
import StoredSettingsTestSupport
import TestHelpers
import Testing

/// A write-behind setter refuses what a durable one refuses (a value the file cannot hold, a
/// key canonically equivalent to a stored one), and one refused change never stops the others
/// from being written.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileStoreWriteBehindRefusalTests {
    static func options(maximumFileSize: Int = FileStore.Options.defaultMaximumFileSize) -> FileStore.Options {
        FileStore.Options(maximumFileSize: maximumFileSize, changeCheckInterval: nil, writeMode: .writeBehind)
    }

    struct Refused: CustomTestStringConvertible, Sendable {
        var name: String
        var fileName: String
        var value: StoredValue
        var key = "bad"
        var code: StorageError.Code
        var maximumFileSize = FileStore.Options.defaultMaximumFileSize
        var testDescription: String { name }
    }

    static let refused: [Refused] = [
        Refused(name: "NaN in JSON", fileName: "settings.json", value: .double(.nan), code: .encodingFailed),
        Refused(name: "infinity in JSON", fileName: "settings.json", value: .double(-.infinity), code: .encodingFailed),
        Refused(
            name: "U+0001 in an XML property list", fileName: "settings.plist", value: .array([.string("a\u{1}")]),
            code: .encodingFailed),
        Refused(
            name: "a value past the size limit", fileName: "settings.json",
            value: .string(String(repeating: "x", count: 600)),
            code: .tooLarge, maximumFileSize: 512),
        Refused(
            name: "nesting past the limit", fileName: "settings.plist",
            value: (0..<64).reduce(StoredValue.int(1)) { value, _ in .array([value]) }, code: .nestingTooDeep),
        // Scalars, which the setter checks without encoding a file when it safely can.
        Refused(
            name: "U+0001 in a string in an XML property list", fileName: "settings.plist",
            value: .string("a\u{1}"), code: .encodingFailed),
        Refused(
            name: "U+FEFF opening a string in an XML property list", fileName: "settings.plist",
            value: .string("\u{FEFF}a"), code: .encodingFailed),
        Refused(
            name: "U+FFFE in a key of an XML property list", fileName: "settings.plist", value: .bool(true),
            key: "bad\u{FFFE}", code: .encodingFailed),
        Refused(
            name: "a short string past a small size limit", fileName: "settings.json",
            value: .string(String(repeating: "x", count: 40)), code: .tooLarge, maximumFileSize: 48),
        Refused(
            name: "a Bool under a long key past a small size limit", fileName: "settings.json", value: .bool(true),
            key: String(repeating: "k", count: 60), code: .tooLarge, maximumFileSize: 48),
    ]

    @Test(arguments: refused)
    func theSetterRefusesWhatADurableSetterRefusesAndOtherKeysAreWritten(_ refused: Refused) throws {
        let folder = try ScratchFolder()
        let url = folder.file(refused.fileName)
        for mode in [FileStore.WriteMode.durable, .writeBehind] {
            var options = Self.options(maximumFileSize: refused.maximumFileSize)
            options.writeMode = mode
            let store = try FileStore(url: url, options: options)
            let error = try #require(throws: StorageError.self, "\(mode)") {
                try store.setValue(refused.value, forKey: refused.key)
            }
            #expect(error.code == refused.code, "\(mode): \(error)")
            #expect(error.key == refused.key, "\(mode): \(error)")
            #expect(store.value(forKey: refused.key) == nil)
            try store.setValue(.int(1), forKey: "good")
            try store.update(forKey: "other") { $0 = .int(2) }
            try store.flush()
            let reopened = try FileStore(url: url, options: quietOptions)
            #expect(reopened.value(forKey: "good") == .int(1), "\(mode)")
            #expect(reopened.value(forKey: "other") == .int(2), "\(mode)")
            #expect(reopened.value(forKey: refused.key) == nil, "\(mode)")
        }
    }

    /// Changes that fit one by one but not together: the writer writes those that fit, drops
    /// the one that does not and says so, and memory holds what the file holds.
    @Test func changesThatTogetherPassTheSizeLimitAreWrittenAsFarAsTheyFit() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let store = try FileStore(url: url, options: Self.options(maximumFileSize: 1_000))
        let text = StoredValue.string(String(repeating: "x", count: 600))
        try store.setValue(.int(1), forKey: "c")
        try store.setValue(text, forKey: "a")
        try store.setValue(text, forKey: "b")
        let outcome = Result { try store.flush() }
        let reopened = try FileStore(url: url, options: quietOptions)
        #expect(reopened.value(forKey: "c") == .int(1))
        #expect([reopened.value(forKey: "a"), reopened.value(forKey: "b")].compactMap { $0 }.count == 1)
        for key in ["a", "b", "c"] { #expect(store.value(forKey: key) == reopened.value(forKey: key), "\(key)") }
        if case .failure(let error) = outcome {
            #expect((error as? StorageError)?.code == .tooLarge, "\(error)")
        }
        // Nothing is left to fail the next write.
        try store.setValue(.int(2), forKey: "c")
        try store.flush()
        #expect(try FileStore(url: url, options: quietOptions).value(forKey: "c") == .int(2))
    }

    /// Another program (`cp`, which takes no lock, as editors do not) makes the file larger
    /// than this store's limit while the background writer writes: the file is at fault, not
    /// the pending change, which stays pending and is written once the file fits again.
    @Test func aFileAnotherProgramMadeTooLargeKeepsThePendingChanges() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let hooks = DurabilityHookSwitch()
        let store = try FileStore(url: url, options: Self.options(maximumFileSize: 1_000).hooked(hooks))
        let large = folder.file("large.json")
        try StoredValueJSON.data(from: .dictionary(["theirs": .string(String(repeating: "x", count: 2_000))]))
            .write(to: large)
        let copied = Lock(false)
        hooks.install { step in
            // Once, inside the first write, between its read of the file and its `rename`.
            guard step == .fileSync, !copied.withLock({ $0 }) else { return true }
            let copy = Process()
            copy.executableURL = URL(fileURLWithPath: "/bin/cp")
            copy.arguments = [large.path, url.path]
            try copy.run()
            copy.waitUntilExit()
            copied.withLock { $0 = true }
            return true
        }
        defer { hooks.remove() }
        try store.setValue(.int(1), forKey: "mine")
        let error = try #require(throws: StorageError.self) { try store.flush() }
        #expect(copied.value)
        #expect(error.code == .tooLarge, "\(error)")
        #expect(error.key == nil, "the file is too large, not the change: \(error)")
        #expect(store.value(forKey: "mine") == .int(1))
        // The other program saves a file within the limit again.
        try Data(#"{"theirs": 2}"#.utf8).write(to: url)
        try store.flush()
        let reopened = try FileStore(url: url, options: quietOptions)
        #expect(reopened.value(forKey: "mine") == .int(1))
        #expect(reopened.value(forKey: "theirs") == .int(2))
    }

    /// Another process stored `"caf\u{E9}"` after this store read the file: the write-behind
    /// set of the canonically equivalent `"cafe\u{301}"` must not overwrite it, as a durable
    /// set would not.
    @Test func aKeyCanonicallyEquivalentToAnotherWritersKeyDoesNotOverwriteIt() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        let store = try FileStore(url: url, options: Self.options())
        try FileStore(url: url, options: quietOptions).setValue(.string("theirs"), forKey: "caf\u{E9}")
        try store.setValue(.int(1), forKey: "other")
        // Refused at once when the background writer has read the other writer's key already,
        // else by the write.
        let set = Result { try store.setValue(.string("mine"), forKey: "cafe\u{301}") }
        let outcome = Result { try store.flush() }
        if case .failure(let error) = set {
            #expect((error as? StorageError)?.code == .invalidKey, "\(error)")
        }
        let reopened = try FileStore(url: url, options: quietOptions)
        #expect(reopened.value(forKey: "caf\u{E9}") == .string("theirs"))
        #expect(reopened.keys().sorted() == ["caf\u{E9}", "other"].sorted())
        #expect(reopened.keys().contains { $0.unicodeScalars.elementsEqual("caf\u{E9}".unicodeScalars) })
        #expect(reopened.value(forKey: "other") == .int(1))
        #expect(store.value(forKey: "caf\u{E9}") == .string("theirs"))
        if case .failure(let error) = outcome {
            #expect((error as? StorageError)?.code == .invalidKey, "\(error)")
        }
        // The durable rule, for comparison.
        var durable = quietOptions
        durable.writeMode = .durable
        let error = try #require(throws: StorageError.self) {
            try FileStore(url: url, options: durable).setValue(.string("mine"), forKey: "cafe\u{301}")
        }
        #expect(error.code == .invalidKey)
    }
}
