import Foundation
import StoredSettings

extension StoreConformance {
    /// A behaviour rule of the ``Storable`` contract, checked on a fresh store.
    public enum Rule: String, Sendable, CaseIterable, CustomStringConvertible {
        /// A key that holds nothing reads `nil` and is not listed by `keys()`.
        case missingKeyIsNil
        /// `setValue(nil)` removes a key; removing an absent key is not an error.
        case removeDeletesKey
        /// A written value is read back at once, and after a relaunch.
        case readAfterWrite
        /// Keys with dots, slashes, spaces, `@`, emoji and other scripts work.
        case unusualKeysWork
        /// Empty keys and keys with NUL or control characters are refused with `.invalidKey`.
        case invalidKeysRejected
        /// `update` is atomic: concurrent increments lose no count; a throwing body writes
        /// nothing.
        case updateIsAtomic
        /// `changes()` delivers every committed change once, in order, and nothing for a write
        /// of the value a key already holds.
        case changesInOrderOnce
        /// An `update` body may read the store: it sees the committed values, and the update
        /// does not hang.
        case updateBodyMayRead
        /// A write to the store from inside its own `update` body (`setValue`, a nested
        /// `update`) throws ``StorageError/Code/reentrantWrite`` instead of hanging, and the
        /// outer update still commits.
        case writeInsideUpdateThrows
        /// An `update` body may write another store of the same kind.
        case updateBodyMayWriteAnotherStore
        /// An `update` whose body throws changes nothing, also after a relaunch, and delivers
        /// nothing through `changes()`.
        case throwingBodyChangesNothing
        /// A write of the value a key already holds, by `setValue` or `update`, delivers nothing.
        case identicalWriteDeliversNothing

        /// The rule's name.
        public var description: String { rawValue }
    }

    /// Checks one behaviour rule on a fresh subject.
    ///
    /// - Returns: The failures; empty when the rule holds.
    public func check(_ rule: Rule) async -> [Failure] {
        await withSubject(rule.rawValue) { subject in
            let store = subject.store
            var failures: [Failure] = []
            func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
                if !condition { failures.append(Failure(check: rule.rawValue, message: message())) }
            }
            switch rule {
            case .missingKeyIsNil:
                expect(store.value(forKey: "absent") == nil, "an absent key does not read nil")
                expect(!store.keys().contains("absent"), "keys() lists an absent key")
                try store.update(forKey: "absent") { value in
                    expect(value == nil, "update sees a value for an absent key")
                }
                expect(store.value(forKey: "absent") == nil, "an update that changes nothing created the key")

            case .removeDeletesKey:
                try store.setValue(.int(1), forKey: "gone")
                try store.setValue(nil, forKey: "gone")
                expect(store.value(forKey: "gone") == nil, "a removed key still reads a value")
                expect(!store.keys().contains("gone"), "keys() lists a removed key")
                try store.setValue(nil, forKey: "never-there")
                if let reopen = subject.reopen {
                    expect(try reopen().value(forKey: "gone") == nil, "a removed key is back after a relaunch")
                }

            case .readAfterWrite:
                try store.setValue(.string("first"), forKey: "k")
                expect(store.value(forKey: "k") == .string("first"), "the first write is not read back")
                try store.setValue(.int(2), forKey: "k")
                expect(store.value(forKey: "k") == .int(2), "an overwrite is not read back")
                expect(store.keys().contains("k"), "keys() does not list a written key")
                let result = try store.update(forKey: "k") { value -> Int in
                    value = .bool(true)
                    return 7
                }
                expect(result == 7, "update does not return its body's result")
                expect(store.value(forKey: "k") == .bool(true), "an update is not read back")
                if let reopen = subject.reopen {
                    expect(try reopen().value(forKey: "k") == .bool(true), "the value is lost after a relaunch")
                }

            case .unusualKeysWork:
                let keys = ["a.b.c", "a/b", "with space", "@home", "emoji 😀", "ключ", "日本", "-dash", "x=1&y=2"]
                for (index, key) in keys.enumerated() {
                    try store.setValue(.int(Int64(index)), forKey: key)
                }
                let reopened = try subject.reopen?()
                for (index, key) in keys.enumerated() {
                    expect(store.value(forKey: key) == .int(Int64(index)), "key '\(key)' does not read back")
                    expect(store.keys().contains(key), "keys() does not list '\(key)'")
                    if let reopened {
                        expect(
                            reopened.value(forKey: key) == .int(Int64(index)), "key '\(key)' is lost after a relaunch")
                    }
                }

            case .invalidKeysRejected:
                for key in ["", "nul\u{0}key", "tab\tkey", "line\nkey", "del\u{7F}key", "c1\u{85}key"] {
                    let shown = key.unicodeScalars.map {
                        $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
                            ? "\\u{\(String($0.value, radix: 16))}" : String($0)
                    }.joined()
                    do {
                        try store.setValue(.int(1), forKey: key)
                        failures.append(Failure(check: rule.rawValue, message: "setValue accepted the key '\(shown)'"))
                    } catch let error as StorageError {
                        expect(
                            error.code == .invalidKey, "setValue refused '\(shown)' with \(error.code), not invalidKey")
                    }
                    do {
                        try store.update(forKey: key) { $0 = .int(1) }
                        failures.append(Failure(check: rule.rawValue, message: "update accepted the key '\(shown)'"))
                    } catch let error as StorageError {
                        expect(
                            error.code == .invalidKey, "update refused '\(shown)' with \(error.code), not invalidKey")
                    }
                }
                expect(store.keys().isEmpty, "a refused key was stored")

            case .updateIsAtomic:
                let tasks = 4
                let increments = 10
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<tasks {
                        group.addTask {
                            for _ in 0..<increments {
                                try? store.update(forKey: "count") { value in
                                    if case .int(let count)? = value {
                                        value = .int(count + 1)
                                    } else {
                                        value = .int(1)
                                    }
                                }
                            }
                        }
                    }
                }
                expect(
                    store.value(forKey: "count") == .int(Int64(tasks * increments)),
                    "concurrent updates lost counts: \(String(describing: store.value(forKey: "count")))")
                struct Refusal: Error {}
                do {
                    try store.update(forKey: "count") { value in
                        value = .int(-1)
                        throw Refusal()
                    }
                    failures.append(Failure(check: rule.rawValue, message: "update did not rethrow its body's error"))
                } catch is Refusal {}
                expect(
                    store.value(forKey: "count") == .int(Int64(tasks * increments)),
                    "an update whose body threw wrote its value")

            case .changesInOrderOnce:
                let stream = store.changes()
                try store.setValue(.int(1), forKey: "k")
                try store.setValue(.int(1), forKey: "k")
                try store.update(forKey: "k") { _ in }
                try store.setValue(.string("two"), forKey: "k")
                try store.setValue(nil, forKey: "k")
                try store.setValue(nil, forKey: "k")
                try store.update(forKey: "other") { $0 = .bool(true) }
                // A last, known change: a repeat of any change before it would arrive before it.
                try store.setValue(.string("end"), forKey: "sentinel")
                let expected = [
                    StoredChange(key: "k", value: .int(1)), StoredChange(key: "k", value: .string("two")),
                    StoredChange(key: "k", value: nil), StoredChange(key: "other", value: .bool(true)),
                    StoredChange(key: "sentinel", value: .string("end")),
                ]
                // The time-out only guards against a stream that never delivers; it is no bound.
                let received = await Self.collect(expected.count, from: stream, timeout: .seconds(60))
                expect(
                    received == expected,
                    "changes() delivered \(received.map(Self.describe)), expected \(expected.map(Self.describe))")

            default:
                failures += try await checkBody(rule, of: subject)
            }
            return failures
        }
    }

    /// Up to `count` changes from `stream`, or fewer when `timeout` passes first.
    static func collect(_ count: Int, from stream: AsyncStream<StoredChange>, timeout: Duration) async -> [StoredChange]
    {
        let received = Lock<[StoredChange]>([])
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await change in stream {
                    let done = received.withLock { changes in
                        changes.append(change)
                        return changes.count >= count
                    }
                    if done { return }
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
            }
            await group.next()
            group.cancelAll()
        }
        return received.withLock { $0 }
    }

    static func describe(_ change: StoredChange) -> String {
        "\(change.key)=\(change.value.map(\.description) ?? "nil")"
    }
}
