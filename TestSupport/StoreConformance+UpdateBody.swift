import Foundation
import StoredSettings

extension StoreConformance {
    /// How long a check waits for an `update` whose body uses the store before it reports a
    /// hang. It only catches a store that waits for itself; it bounds no work.
    static let hangGuard: TimeInterval = 60

    /// Checks the rules about what an `update` body may do, and what a write that changes
    /// nothing delivers.
    func checkBody(_ rule: Rule, of subject: Subject) async throws -> [Failure] {
        let store = subject.store
        var problems: [String] = []
        do {
            try await checkBody(rule, of: store, subject, &problems)
        } catch let hang as Hang {
            // The store is stuck holding its lock: touch it no more.
            problems.append(hang.description)
        }
        return problems.map { Failure(check: rule.rawValue, message: $0) }
    }

    /// A store operation that had not returned after ``hangGuard``.
    struct Hang: Error, CustomStringConvertible {
        var description: String
    }

    private func checkBody(
        _ rule: Rule, of store: any Storable, _ subject: Subject, _ problems: inout [String]
    ) async throws {
        switch rule {
        case .updateBodyMayRead:
            try store.setValue(.int(1), forKey: "k")
            try store.setValue(.string("x"), forKey: "other")
            problems += try await Self.unlessItHangs("an update whose body reads the store") {
                try store.update(forKey: "k") { value -> [String] in
                    value = .int(2)
                    var seen: [String] = []
                    if store.value(forKey: "k") != .int(1) { seen.append("the body does not read the committed value") }
                    if store.value(forKey: "other") != .string("x") { seen.append("the body cannot read another key") }
                    if !store.keys().contains("other") { seen.append("keys() from the body misses a key") }
                    return seen
                }
            }
            if store.value(forKey: "k") != .int(2) { problems.append("an update whose body reads did not commit") }

        case .writeInsideUpdateThrows:
            problems += try await Self.unlessItHangs("an update whose body writes the same store") {
                try store.update(forKey: "k") { value -> [String] in
                    value = .int(1)
                    let writes: [(String, () throws -> Void)] = [
                        ("setValue of another key", { try store.setValue(.int(9), forKey: "other") }),
                        ("setValue of the updated key", { try store.setValue(.int(9), forKey: "k") }),
                        ("a nested update", { try store.update(forKey: "other") { $0 = .int(9) } }),
                    ]
                    return writes.compactMap { name, write in
                        do {
                            try write()
                            return "\(name) inside an update body did not throw"
                        } catch let error as StorageError where error.code == .reentrantWrite {
                            return nil
                        } catch {
                            return "\(name) inside an update body threw \(error), not reentrantWrite"
                        }
                    }
                }
            }
            if store.value(forKey: "k") != .int(1) { problems.append("the outer update did not commit") }
            if store.value(forKey: "other") != nil { problems.append("a refused write inside the body was kept") }

        case .updateBodyMayWriteAnotherStore:
            let second = try makeSubject()
            defer { second.tearDown() }
            let other = second.store
            problems += try await Self.unlessItHangs("an update whose body writes another store") {
                try store.update(forKey: "k") { value -> [String] in
                    value = .int(1)
                    try other.setValue(.int(2), forKey: "k")
                    try other.update(forKey: "n") { $0 = .int(3) }
                    return []
                }
            }
            if store.value(forKey: "k") != .int(1) { problems.append("the outer update did not commit") }
            if store.value(forKey: "n") != nil { problems.append("the other store's write landed in this one") }
            if other.value(forKey: "k") != .int(2) || other.value(forKey: "n") != .int(3) {
                problems.append("the other store did not keep the body's writes")
            }

        case .throwingBodyChangesNothing:
            try store.setValue(.int(1), forKey: "k")
            let stream = store.changes()
            struct Refusal: Error {}
            let attempts: [(key: String, value: StoredValue?)] = [
                ("k", .int(2)), ("k", nil), ("fresh", .string("new")),
            ]
            for attempt in attempts {
                do {
                    try store.update(forKey: attempt.key) { value in
                        value = attempt.value
                        throw Refusal()
                    }
                    problems.append("update did not rethrow its body's error")
                } catch is Refusal {}
            }
            if store.value(forKey: "k") != .int(1) { problems.append("a body that threw changed the value") }
            if store.value(forKey: "fresh") != nil || store.keys().contains("fresh") {
                problems.append("a body that threw created a key")
            }
            if let reopened = try subject.reopen?() {
                if reopened.value(forKey: "k") != .int(1) || reopened.value(forKey: "fresh") != nil {
                    problems.append("a body that threw changed the medium")
                }
            }
            problems += try await Self.deliversNothing(on: store, stream, "an update whose body threw")

        case .identicalWriteDeliversNothing:
            let values: [String: StoredValue] = [
                "int": .int(1), "string": .string("a"), "array": .array([.bool(true), .double(0.5)]),
                "dictionary": .dictionary(["x": .int(1), "y": .array([.string("z")])]),
            ]
            for (key, value) in values { try store.setValue(value, forKey: key) }
            let stream = store.changes()
            for (key, value) in values {
                try store.setValue(value, forKey: key)
                try store.update(forKey: key) { $0 = value }
                try store.update(forKey: key) { _ in }
            }
            try store.setValue(nil, forKey: "absent")
            try store.update(forKey: "absent") { $0 = nil }
            problems += try await Self.deliversNothing(on: store, stream, "a write of the value already held")

        default:
            preconditionFailure("\(rule) is checked by check(_:)")
        }
    }

    /// Writes a marker and returns a problem unless it is the first change `stream` delivers:
    /// anything the operations before it delivered would arrive first.
    static func deliversNothing(
        on store: any Storable, _ stream: AsyncStream<StoredChange>, _ what: String
    ) async throws -> [String] {
        let marker = StoredChange(key: "marker", value: .string("end"))
        try store.setValue(marker.value, forKey: marker.key)
        // The time-out only guards against a stream that never delivers; it is no bound.
        let first = await collect(1, from: stream, timeout: .seconds(60))
        return first == [marker] ? [] : ["\(what) delivered \(first.map(describe)), expected only the marker"]
    }

    /// Runs `operation` on a thread of its own and returns the problems it reports or its error.
    ///
    /// - Throws: ``Hang`` when it has not returned after ``hangGuard``; a store that waits for
    ///   itself cannot be stopped, so its thread is left behind.
    static func unlessItHangs(
        _ what: String, _ operation: @escaping @Sendable () throws -> [String]
    ) async throws -> [String] {
        let outcome = Lock<Result<[String], any Error>?>(nil)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            let result = Result { try operation() }
            outcome.withLock { $0 = result }
            finished.signal()
        }.start()
        // The wait blocks a thread outside Swift's cooperative pool, so a store whose work
        // needs that pool still runs while the check waits.
        let returned = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: finished.wait(timeout: .now() + hangGuard) == .success)
            }
        }
        guard returned, let result = outcome.withLock({ $0 }) else {
            throw Hang(description: "\(what) hung: it had not returned after \(Int(hangGuard)) s")
        }
        switch result {
        case .success(let problems): return problems
        case .failure(let error): return ["\(what) threw \(error)"]
        }
    }
}
