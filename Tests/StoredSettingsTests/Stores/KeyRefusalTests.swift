import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// Keys a write must refuse, through every fast path of the in-memory write: seeded, written
/// first, loaded from a file, from inside update bodies.
@Suite(.timeLimit(TestScale.hangGuard))
struct KeyRefusalTests {
    // MARK: - Keys

    static let controlKeys: [String] = [
        "", "\u{0}", "a\u{0}b", "\u{1F}", "tab\tkey", "a\u{7F}", "\u{80}", "x\u{85}y", "\u{9F}", "é\u{9F}",
        "\u{1E0C}\u{85}",
    ]

    /// Seeded keys a write would refuse are refused by every write to them, including removal
    /// and an update, whether or not the store also holds valid keys, and after valid writes.
    @Test(arguments: controlKeys)
    func aSeededInvalidKeyIsRefusedByEveryWrite(key: String) throws {
        let store = InMemoryStore([key: .int(1), "good": .int(1)])
        try store.setValue(.int(2), forKey: "good") // a valid write first
        for write in ["set", "remove", "update", "set-same"] {
            let error = #expect(throws: StorageError.self, "\(write) \(key.debugDescription)") {
                switch write {
                case "set": try store.setValue(.int(2), forKey: key)
                case "remove": try store.setValue(nil, forKey: key)
                case "set-same": try store.setValue(.int(1), forKey: key)
                default: try store.update(forKey: key) { $0 = .int(3) }
                }
            }
            #expect(error?.code == .invalidKey, "\(write) \(key.debugDescription)")
        }
        #expect(store.value(forKey: key) == .int(1))
    }

    /// The same keys written to an empty store, and from inside an update body of it (where
    /// an invalid key is reported before re-entry).
    @Test(arguments: controlKeys)
    func anInvalidKeyIsRefusedOnAnEmptyStoreAndFromAnUpdateBody(key: String) throws {
        let store = InMemoryStore()
        #expect(throws: StorageError.self) { try store.setValue(.int(1), forKey: key) }
        #expect(throws: StorageError.self) { try store.update(forKey: key) { $0 = .int(1) } }
        try store.update(forKey: "ok") { value in
            let error = #expect(throws: StorageError.self) { try store.setValue(.int(1), forKey: key) }
            #expect(error?.code == .invalidKey)
            value = .int(1)
        }
        #expect(store.values == ["ok": .int(1)])
    }

    /// Bytes near the control ranges that are not control characters: U+00A0 (C2 A0), U+00C2
    /// (C3 82), U+0100, U+2028, emoji, a lone combining mark.
    @Test func keysNearTheControlRangesAreAccepted() throws {
        let store = InMemoryStore()
        for key in ["\u{A0}", "a\u{A0}b", "\u{C2}", "\u{100}", "\u{2028}", "🙂", "\u{301}", "~", " "] {
            try store.setValue(.int(1), forKey: key)
            try store.setValue(.int(2), forKey: key)
            try store.update(forKey: key) { $0 = .int(3) }
            #expect(store.value(forKey: key) == .int(3), "\(key.debugDescription)")
        }
    }

    /// Canonically equivalent keys of other scalars, including a pair of the same UTF-8
    /// length (so only the byte comparison tells them apart): refused by a set, a removal and
    /// an update, whichever spelling was stored first, seeded or written.
    @Test(arguments: [
        ("caf\u{E9}", "cafe\u{301}"), ("cafe\u{301}", "caf\u{E9}"), ("\u{C5}", "\u{212B}"),
        ("\u{1E0A}\u{323}", "\u{1E0C}\u{307}"), ("\u{1E0C}\u{307}", "D\u{323}\u{307}"),
        ("a\u{1E0A}\u{323}b", "a\u{1E0C}\u{307}b"),
    ])
    func aCanonicallyEquivalentKeyIsRefused(stored: String, written: String) throws {
        #expect(stored == written)
        #expect(!stored.unicodeScalars.elementsEqual(written.unicodeScalars))
        let seeded = InMemoryStore([stored: .int(1)])
        let writtenFirst = InMemoryStore()
        try writtenFirst.setValue(.int(1), forKey: stored)
        for store in [seeded, writtenFirst] {
            try store.setValue(.int(1), forKey: stored) // same scalars: accepted, no change
            for write in ["set", "remove", "update"] {
                let error = #expect(throws: StorageError.self, "\(write)") {
                    switch write {
                    case "set": try store.setValue(.int(2), forKey: written)
                    case "remove": try store.setValue(nil, forKey: written)
                    default: try store.update(forKey: written) { $0 = .int(3) }
                    }
                }
                #expect(error?.code == .invalidKey, "\(write)")
            }
            #expect(store.value(forKey: stored) == .int(1))
            let keys = store.keys()
            #expect(keys.count == 1)
            #expect(keys.first.map { $0.unicodeScalars.elementsEqual(stored.unicodeScalars) } == true)
        }
    }

    /// A FileStore that loaded keys a write would refuse from its file refuses writes to them.
    @Test func keysLoadedFromAFileThatAWriteWouldRefuseAreRefused() throws {
        let folder = try ScratchFolder()
        let url = folder.file("settings.json")
        try Data(#"{"bad\u0001key": 1, "bad\u0085": 1, "good": 1}"#.utf8).write(to: url)
        let store = try FileStore(url: url, options: quietOptions)
        #expect(store.value(forKey: "good") == .int(1))
        try store.setValue(.int(2), forKey: "good")
        for key in ["bad\u{1}key", "bad\u{85}"] {
            #expect(throws: StorageError.self) { try store.setValue(.int(2), forKey: key) }
            #expect(throws: StorageError.self) { try store.update(forKey: key) { $0 = .int(3) } }
        }
    }

}
