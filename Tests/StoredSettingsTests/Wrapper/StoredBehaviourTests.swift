import Foundation
import StoredSettings
import StoredSettingsTestSupport
import Testing

private enum Key: String, StorageKey {
    case autoReload, launchCount, theme, lastOpened, nickname
}

private enum Theme: String, StoredValueConvertible { case system, light, dark }

private struct AppSettings: SettingsGroup {
    @Stored(Key.autoReload, default: false) var autoReload: Bool
    @Stored(Key.launchCount, default: 0) var launchCount: Int
    @Stored(Key.theme, default: .system) var theme: Theme
    @Stored(Key.lastOpened) var lastOpened: Date?
    @Stored(Key.nickname) var nickname: String?
}

/// The behaviour rules of the design, one test each.
@Suite(.timeLimit(TestScale.hangGuard))
struct StoredBehaviourTests {
    @Test func readsDefaultWhenKeyIsAbsentAndDoesNotPersistIt() {
        let store = InMemoryStore()
        let settings = AppSettings(store: store)
        #expect(settings.launchCount == 0)
        #expect(settings.theme == .system)
        #expect(store.keys().isEmpty)
        #expect(settings.$launchCount.hasStoredValue == false)
    }

    @Test func changingTheDefaultInCodeChangesItForUsersWhoNeverSetTheValue() {
        let store = InMemoryStore()
        let old = Stored(Key.launchCount, default: 1, store: store)
        #expect(old.wrappedValue == 1)
        let new = Stored(Key.launchCount, default: 5, store: store)
        #expect(new.wrappedValue == 5)
    }

    @Test func writesReachTheStoreImmediately() {
        let store = InMemoryStore()
        let settings = AppSettings(store: store)
        settings.autoReload = true
        settings.theme = .dark
        #expect(store.value(forKey: "autoReload") == .bool(true))
        #expect(store.value(forKey: "theme") == .string("dark"))
        #expect(AppSettings(store: store).theme == .dark)
    }

    @Test func settingOptionalToNilRemovesTheKeyAndReadsBackNil() {
        let store = InMemoryStore()
        let settings = AppSettings(store: store)
        #expect(settings.nickname == nil)
        settings.nickname = "ada"
        #expect(store.value(forKey: "nickname") == .string("ada"))
        settings.nickname = nil
        #expect(store.value(forKey: "nickname") == nil)
        #expect(settings.nickname == nil)
        #expect(settings.$nickname.hasStoredValue == false)
    }

    @Test func resetRemovesTheValueAndReadsReturnTheDefault() {
        let store = InMemoryStore(["launchCount": .int(7)])
        let settings = AppSettings(store: store)
        #expect(settings.launchCount == 7)
        settings.$launchCount.reset()
        #expect(settings.launchCount == 0)
        #expect(store.value(forKey: "launchCount") == nil)
    }

    @Test func loadThrowsTypeMismatchNamingKeyAndTypesWhileGetterFallsBack() throws {
        let store = InMemoryStore(["launchCount": .string("many")])
        let settings = AppSettings(store: store)
        let reports = ReportedErrors()
        let value = reports.capture { settings.launchCount }
        #expect(value == 0)
        let error = try #require(throws: StorageError.self) { try settings.$launchCount.load() }
        #expect(error.code == .typeMismatch)
        #expect(error.key == "launchCount")
        #expect(error.expectedType == "Int")
        #expect(error.foundKind == "string")
        #expect(error.description == "Setting 'launchCount' in memory: expected Int, found string.")
        #expect(!error.description.contains("many"))
        // The unreadable data stays until the user writes.
        #expect(store.value(forKey: "launchCount") == .string("many"))
        #expect(reports.errors.map(\.code) == [.typeMismatch])
    }

    @Test func unreadableDataIsReportedOnceAndKeptUntilTheUserWrites() {
        let store = InMemoryStore(["theme": .string("sepia")])
        let settings = AppSettings(store: store)
        let reports = ReportedErrors()
        reports.capture {
            for _ in 0..<5 { #expect(settings.theme == .system) }
        }
        #expect(reports.errors.count == 1)
        #expect(reports.errors.first?.key == "theme")
        #expect(store.value(forKey: "theme") == .string("sepia"))
        settings.theme = .light
        #expect(store.value(forKey: "theme") == .string("light"))
    }

    @Test func updateIsReadModifyWriteStartingFromTheDefault() throws {
        let store = InMemoryStore()
        let settings = AppSettings(store: store)
        let result = try settings.$launchCount.update { count -> String in
            count += 1
            return "was \(count - 1)"
        }
        #expect(result == "was 0")
        #expect(settings.launchCount == 1)
    }

    @Test func updateThatThrowsWritesNothing() {
        struct Abort: Error {}
        let store = InMemoryStore(["launchCount": .int(3)])
        let settings = AppSettings(store: store)
        #expect(throws: Abort.self) {
            try settings.$launchCount.update { count in
                count = 100
                throw Abort()
            }
        }
        #expect(settings.launchCount == 3)
    }

    @Test func updateOnUnreadableDataThrowsAndLeavesItUntouched() {
        let store = InMemoryStore(["launchCount": .bool(true)])
        let settings = AppSettings(store: store)
        let error = #expect(throws: StorageError.self) {
            try settings.$launchCount.update { $0 += 1 }
        }
        #expect(error?.code == .typeMismatch)
        #expect(store.value(forKey: "launchCount") == .bool(true))
    }

    @Test func aFailedWriteChangesNothingAndTheSetterReportsIt() throws {
        let store = FailingStore(wrapping: InMemoryStore(["launchCount": .int(4)]))
        store.fail(.setValue, .update, forKey: "launchCount", with: StorageError(.io, message: "disk full"))
        let settings = AppSettings(store: store)
        let reports = ReportedErrors()
        reports.capture { settings.launchCount = 5 }
        #expect(settings.launchCount == 4)
        #expect(reports.codes == [.io])
        #expect(reports.errors.first?.key == "launchCount")
        let saveError = #expect(throws: StorageError.self) { try settings.$launchCount.save(6) }
        #expect(saveError?.code == .io)
        #expect(throws: StorageError.self) { try settings.$launchCount.update { $0 += 1 } }
        reports.capture { settings.$launchCount.reset() }
        #expect(store.wrapped.value(forKey: "launchCount") == .int(4))
        #expect(reports.codes == [.io, .io])
    }

    @Test func saveThrowsForAnInvalidKeyAndTheSetterReportsIt() {
        let store = InMemoryStore()
        let bad = Stored("", default: 1, store: store)
        let error = #expect(throws: StorageError.self) { try bad.save(2) }
        #expect(error?.code == .invalidKey)
        let reports = ReportedErrors()
        reports.capture { bad.wrappedValue = 3 }
        #expect(reports.errors.map(\.code) == [.invalidKey])
        #expect(store.keys().isEmpty)
    }

    @Test(arguments: ["", "a\u{0}b", "tab\there", "line\nbreak", "bell\u{7}", "c1\u{85}"])
    func rejectsEmptyKeysAndControlCharacters(key: String) {
        let store = InMemoryStore()
        let error = #expect(throws: StorageError.self) { try store.setValue(.bool(true), forKey: key) }
        #expect(error?.code == .invalidKey)
    }

    @Test(arguments: ["with.dots", "with/slashes", "with spaces", "emoji 🎛️", "at@sign", "ünïcödé"])
    func acceptsEveryOtherKeyName(key: String) throws {
        let store = InMemoryStore()
        let setting = Stored(key, default: 0, store: store)
        setting.wrappedValue = 42
        #expect(setting.wrappedValue == 42)
        #expect(store.value(forKey: key) == .int(42))
    }
}
