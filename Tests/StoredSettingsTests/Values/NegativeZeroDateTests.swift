import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// The date whose interval since the reference date is -0.0 reads back as -0.0, through every
/// backend and file format, not as +0.0.
@Suite(.timeLimit(TestScale.hangGuard))
struct NegativeZeroDateTests {
    static let negativeZero = Date(timeIntervalSinceReferenceDate: -0.0)

    static func isNegativeZero(_ date: Date?) -> Bool {
        guard let interval = date?.timeIntervalSinceReferenceDate else { return false }
        return interval == 0 && interval.sign == .minus
    }

    @Test func dateTextKeepsTheSignOfZero() throws {
        let text = try #require(DateText.string(from: Self.negativeZero))
        #expect(Self.isNegativeZero(DateText.date(from: text)), "\(text)")
        let positive = try #require(DateText.string(from: Date(timeIntervalSinceReferenceDate: 0)))
        #expect(positive == "2001-01-01T00:00:00Z")
        #expect(DateText.date(from: positive)?.timeIntervalSinceReferenceDate.sign == .plus)
    }

    @Test(arguments: ["settings.json", "settings.plist", "settings.binary.plist"])
    func aFileKeepsTheSignOfZero(name: String) throws {
        let folder = try ScratchFolder()
        let url = folder.file(name)
        if name.hasSuffix(".binary.plist") {
            try PropertyListSerialization.data(fromPropertyList: [String: Any](), format: .binary, options: 0).write(
                to: url)
        }
        let store = try FileStore(url: url, options: quietOptions)
        try store.setValue(Self.negativeZero.storedValue(), forKey: "when")
        let reopened = try FileStore(url: url, options: quietOptions)
        let value = try #require(reopened.value(forKey: "when"))
        #expect(Self.isNegativeZero(try Date(storedValue: value)), "\(value)")
    }

    @Test func userDefaultsKeepsTheSignOfZero() throws {
        let name = FileManager.default.temporaryDirectory.appendingPathComponent(
            "NegativeZeroDateTests-\(UUID().uuidString)"
        ).path
        let store = try UserDefaultsStore(suiteAtPath: name)
        defer { store.defaults.removePersistentDomain(forName: name) }
        try store.setValue(Self.negativeZero.storedValue(), forKey: "when")
        let value = try #require(try UserDefaultsStore(suiteAtPath: name).value(forKey: "when"))
        #expect(Self.isNegativeZero(try Date(storedValue: value)), "\(value)")
    }

    @Test func theWrapperReadsNegativeZeroBackFromAFile() throws {
        let store = try TemporaryFileStore()
        let stored = Stored(StoredKeyName("when"), default: Date.distantPast, store: store)
        try stored.save(Self.negativeZero)
        let reopened = Stored(StoredKeyName("when"), default: Date.distantPast, store: try store.reopened())
        #expect(Self.isNegativeZero(try reopened.load()))
    }
}

private struct StoredKeyName: StorageKey {
    let name: String
    init(_ name: String) { self.name = name }
}
