/// A thread-safe dictionary of stored values with change delivery: the shared core of the
/// in-memory, environment and command-line stores.
///
/// It keeps the ``Storable`` contract: keys validated on write, writes of an identical value
/// commit nothing, `update` atomic under one lock, every commit bumps the revision and is
/// published in order.
package final class DictionaryStorage: Sendable {
    package struct State: Sendable {
        package var values: [String: StoredValue]
        package var revision: UInt64 = 0
    }

    package let state: Lock<State>
    package let broadcaster = ChangeBroadcaster()

    package init(_ values: [String: StoredValue] = [:]) {
        state = Lock(State(values: values))
    }

    @inline(__always)
    package func value(forKey key: String) -> StoredValue? {
        state.withLock { $0.values[key] }
    }

    @inline(__always)
    package func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        state.withLock { ($0.values[key], $0.revision) }
    }

    package func keys() -> [String] {
        state.withLock { Array($0.values.keys) }
    }

    package var snapshot: [String: StoredValue] {
        state.withLock { $0.values }
    }

    package func setValue(_ value: StoredValue?, forKey key: String) throws {
        try validateKeyName(key)
        state.withLock { state in
            commit(value, forKey: key, in: &state)
        }
    }

    package func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try validateKeyName(key)
        return try state.withLock { state in
            var value = state.values[key]
            let result = try body(&value)
            commit(value, forKey: key, in: &state)
            return result
        }
    }

    /// Replaces every value at once, publishing one change per key that differs.
    package func replaceAll(with values: [String: StoredValue]) {
        state.withLock { state in
            var changes: [StoredChange] = []
            for (key, old) in state.values where values[key] == nil {
                _ = old
                changes.append(StoredChange(key: key, value: nil))
            }
            for (key, new) in values where !(state.values[key].map { $0.isIdentical(to: new) } ?? false) {
                changes.append(StoredChange(key: key, value: new))
            }
            guard !changes.isEmpty else { return }
            state.values = values
            state.revision &+= 1
            broadcaster.publish(changes)
        }
    }

    private func commit(_ value: StoredValue?, forKey key: String, in state: inout State) {
        let old = state.values[key]
        switch (old, value) {
        case (nil, nil): return
        case let (old?, new?) where old.isIdentical(to: new): return
        default: break
        }
        state.values[key] = value
        state.revision &+= 1
        broadcaster.publish(StoredChange(key: key, value: value))
    }

    package func changes() -> AsyncStream<StoredChange> {
        broadcaster.subscribe()
    }
}
