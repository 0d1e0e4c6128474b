import StoredSettings
import StoredSettingsCommandLine
import Testing

/// The per-key entries an environment store keeps: every read after the first gives what the
/// first gave, whichever member asked first, and no store sees another's entries.
@Suite(.timeLimit(TestScale.hangGuard))
struct EnvironmentKeyEntryTests {
    enum FirstRead: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case value, origin, variableName, revision
        var testDescription: String { rawValue }
    }

    @Test(arguments: FirstRead.allCases)
    func everyMemberReadsTheSameEntryWhicheverAskedFirst(first: FirstRead) {
        let store = EnvironmentStore(prefix: "APP", environment: ["APP_PAGE_SIZE": " 42 "])
        switch first {
        case .value: _ = store.value(forKey: "pageSize")
        case .origin: _ = store.origin(forKey: "pageSize")
        case .variableName: _ = store.variableName(forKey: "pageSize")
        case .revision: _ = store.valueWithRevision(forKey: "pageSize")
        }
        for _ in 0..<3 {
            #expect(store.value(forKey: "pageSize") == .string(" 42 "))
            #expect(store.valueWithRevision(forKey: "pageSize") == (.string(" 42 "), 0))
            #expect(store.origin(forKey: "pageSize") == "environment variable APP_PAGE_SIZE")
            #expect(store.variableName(forKey: "pageSize") == "APP_PAGE_SIZE")
        }
    }

    @Test func anUnsetKeyStaysUnsetOnEveryRead() {
        let store = EnvironmentStore(prefix: "APP", environment: ["APP_THEME": ""])
        for _ in 0..<3 {
            #expect(store.value(forKey: "theme") == nil)
            #expect(store.value(forKey: "☕️") == nil)
            #expect(store.origin(forKey: "theme") == nil)
            #expect(store.variableName(forKey: "theme") == "APP_THEME")
        }
    }

    @Test func storesWithDifferentEnvironmentsKeepTheirOwnEntries() {
        let first = EnvironmentStore(prefix: "APP", environment: ["APP_PAGE_SIZE": "1"])
        let second = EnvironmentStore(prefix: "APP", environment: ["APP_PAGE_SIZE": "2"])
        let empty = EnvironmentStore(prefix: "APP", environment: [:])
        let other = EnvironmentStore(prefix: "TOOL", environment: ["APP_PAGE_SIZE": "1", "TOOL_PAGE_SIZE": "3"])
        for _ in 0..<3 {
            #expect(first.value(forKey: "pageSize") == .string("1"))
            #expect(second.value(forKey: "pageSize") == .string("2"))
            #expect(empty.value(forKey: "pageSize") == nil)
            #expect(other.value(forKey: "pageSize") == .string("3"))
            #expect(other.origin(forKey: "pageSize") == "environment variable TOOL_PAGE_SIZE")
        }
    }

    @Test func aRefusedWriteLeavesWhatEveryReadReturns() throws {
        let store = EnvironmentStore(prefix: "APP", environment: ["APP_PAGE_SIZE": "42"])
        let setting = Stored("pageSize", default: 0, store: store)
        #expect(setting.wrappedValue == 42)
        let refusal = #expect(throws: StorageError.self) { try setting.save(7) }
        #expect(refusal?.code == .readOnly)
        #expect(throws: StorageError.self) { try store.setValue(nil, forKey: "pageSize") }
        #expect(throws: StorageError.self) {
            try store.update(forKey: "pageSize") { (value: inout StoredValue?) in value = .int(7) }
        }
        #expect(setting.wrappedValue == 42)
        #expect(try setting.load() == 42)
        #expect(store.valueWithRevision(forKey: "pageSize") == (.string("42"), 0))
    }

    @Test func manyKeysReadTheirOwnValues() throws {
        var environment: [String: String] = [:]
        for index in 0..<300 { environment["APP_KEY\(index)"] = "\(index)" }
        let store = EnvironmentStore(prefix: "APP", environment: environment)
        for round in 0..<2 {
            for index in 0..<300 {
                let key = "key\(index)"
                #expect(store.value(forKey: key) == .string("\(index)"), "round \(round)")
                #expect(try Int(storedValue: #require(store.value(forKey: key))) == index)
            }
        }
    }

    @Test func concurrentFirstReadsAllSeeTheOneValue() async {
        let store = EnvironmentStore(prefix: "APP", environment: ["APP_PAGE_SIZE": "42"])
        let values = await withTaskGroup(of: StoredValue?.self) { group in
            for _ in 0..<16 { group.addTask { store.value(forKey: "pageSize") } }
            var values: [StoredValue?] = []
            for await value in group { values.append(value) }
            return values
        }
        #expect(values == Array(repeating: .string("42"), count: 16))
    }
}
