import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

/// A Codable setting is decoded once per stored revision; every kind of write makes the next
/// read return the new value at once.
@Suite(.timeLimit(TestScale.hangGuard))
struct CodableCacheTests {
    struct Window: Codable, Equatable, StoredValueConvertible {
        var width: Int
        var title: String
    }

    /// Counts its decodes; only `repeatedReadDoesNotDecodeAgain` uses it.
    struct Counted: Codable, Equatable, StoredValueConvertible {
        static let decodes = Lock(0)
        var value: [Int]
        init(value: [Int]) { self.value = value }
        init(from decoder: any Decoder) throws {
            Self.decodes.withLock { $0 += 1 }
            value = try decoder.singleValueContainer().decode([Int].self)
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(value)
        }
    }

    static let initial = Window(width: 1, title: "one")
    static let fallback = Window(width: 0, title: "default")

    enum Write: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case wrapperSet, otherWrapperSet, storeSetValue, storeUpdate, wrapperUpdate, wrapperSave, reset
        var testDescription: String { rawValue }
    }

    @Test(arguments: Write.allCases)
    func cachedReadSeesEveryKindOfWrite(write: Write) throws {
        let store = InMemoryStore()
        let window = Stored("window", default: Self.fallback, store: store)
        window.wrappedValue = Self.initial
        #expect(window.wrappedValue == Self.initial)
        #expect(window.wrappedValue == Self.initial)
        let next = Window(width: 2, title: "two")
        switch write {
        case .wrapperSet: window.wrappedValue = next
        case .otherWrapperSet: Stored("window", default: Self.fallback, store: store).wrappedValue = next
        case .storeSetValue: try store.setValue(next.storedValue(), forKey: "window")
        case .storeUpdate: try store.update(forKey: "window") { $0 = try next.storedValue() }
        case .wrapperUpdate: try window.update { $0 = next }
        case .wrapperSave: try window.save(next)
        case .reset: window.reset()
        }
        #expect(window.wrappedValue == (write == .reset ? Self.fallback : next))
        #expect(try window.load() == (write == .reset ? Self.fallback : next))
    }

    @Test func repeatedReadDoesNotDecodeAgain() throws {
        let store = InMemoryStore()
        let setting = Stored("counted", default: Counted(value: []), store: store)
        setting.wrappedValue = Counted(value: [1, 2])
        let before = Counted.decodes.value
        for _ in 0..<10 { #expect(setting.wrappedValue.value == [1, 2]) }
        #expect(Counted.decodes.value - before == 1)
        setting.wrappedValue = Counted(value: [3])
        #expect(setting.wrappedValue.value == [3])
        #expect(Counted.decodes.value - before == 2)
    }

    @Test func cachedReadSeesAWriteFromAnotherFileStoreInstance() async throws {
        let store = try TemporaryFileStore()
        let window = Stored("window", default: Self.fallback, store: store)
        window.wrappedValue = Self.initial
        #expect(window.wrappedValue == Self.initial)
        let other = try store.reopened()
        let next = Window(width: 3, title: "from another process")
        var events = store.changes().makeAsyncIterator()
        try other.setValue(next.storedValue(), forKey: "window")
        // The store noticed the other instance's write: the cached value must not hide it.
        #expect(await events.next()?.key == "window")
        #expect(window.wrappedValue == next)
    }
}
