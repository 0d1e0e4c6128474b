/// A thread-safe dictionary of stored values with change delivery: the shared core of the
/// in-memory, environment, command-line and file stores.
///
/// It keeps the ``Storable`` contract: keys validated on write, writes of an identical value
/// commit nothing, `update` atomic, every commit bumps the revision and is published in order.
///
/// Two locks, taken in this order: `writers` (recursive) serialises every write and the whole
/// of `update`; `state` guards the values only for the moment of a read or a commit. No user
/// code (an `update` body, an encoder) runs while `state` is held, so a body that reads this
/// store neither deadlocks nor makes an overlapping `inout` access. A write from inside an
/// `update` body to the same storage throws ``StorageError/Code/reentrantWrite``
/// (``UpdateScope``): it would otherwise land and be overwritten by the update's result.
package final class DictionaryStorage: Sendable {
    package struct State: Sendable {
        package var values: [String: StoredValue]
        package var revision: UInt64 = 0
    }

    // Private: every mutation goes through this file, which takes `writers` first.
    private let state: Lock<State>
    package let broadcaster = ChangeBroadcaster()
    private let writers: RecursiveLock
    /// The ``UpdateScope`` media of this storage, named once (by the identity of its writers'
    /// lock, which no other storage shares) rather than on every write.
    private let media: [String]

    package init(_ values: [String: StoredValue] = [:]) {
        state = Lock(State(values: values))
        let writers = RecursiveLock()
        self.writers = writers
        media = [UpdateScope.medium(writers)]
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
        try StorageError.validate(key: key)
        try checkOutsideUpdateBody(forKey: key)
        try writers.withLock {
            try state.withLock { state in
                try commit(value, forKey: key, in: &state)
            }
        }
    }

    /// Runs `body` on the value of `key` and commits the result, with no other write between.
    ///
    /// `body` runs outside the value lock: it may read this store. A write it makes to this
    /// storage from the same thread throws ``StorageError/Code/reentrantWrite``.
    package func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try StorageError.validate(key: key)
        try checkOutsideUpdateBody(forKey: key)
        return try writers.withLock {
            var value = self.value(forKey: key)
            let result = try UpdateScope.runBody(ofUpdateOn: media, key: key) { try body(&value) }
            try state.withLock { state in
                try commit(value, forKey: key, in: &state)
            }
            return result
        }
    }

    /// Runs `body` with every other writer of this storage held off: the way a store that
    /// commits elsewhere first (a file) keeps its read-write-commit sequence atomic.
    package func withWritersLocked<R>(_ body: () throws -> R) rethrows -> R {
        try writers.withLock(body)
    }

    /// Replaces every value at once, publishing one change per key that differs.
    package func replaceAll(with values: [String: StoredValue]) {
        writers.withLock {
            state.withLock { state in
                var changes: [StoredChange] = []
                for key in state.values.keys where values[key] == nil {
                    changes.append(StoredChange(key: key, value: nil))
                }
                for (key, new) in values where !state.values[key].isIdentical(to: new) {
                    changes.append(StoredChange(key: key, value: new))
                }
                guard !changes.isEmpty else { return }
                state.values = values
                state.revision &+= 1
                broadcaster.publish(changes)
            }
        }
    }

    /// Replaces the values with `values`, which differ from the current ones exactly at
    /// `changedKeys`, and publishes those keys: ``replaceAll(with:)`` without comparing every
    /// key, for a store that commits elsewhere first (a file) and knows what it changed.
    ///
    /// Takes `writers` like every other write, so it never lands inside another writer's
    /// read-modify-commit sequence.
    package func replace(with values: [String: StoredValue], changedKeys: [String]) {
        writers.withLock {
            state.withLock { state in
                state.values = values
                state.revision &+= 1
                broadcaster.publish(changedKeys.map { StoredChange(key: $0, value: values[$0]) })
            }
        }
    }

    /// Replaces the values with `values` and publishes `changes`, in order: the changes of a
    /// group of writes committed elsewhere first (a file), each delivered once even when
    /// several change one key.
    ///
    /// Takes `writers` like every other write.
    package func replace(with values: [String: StoredValue], publishing changes: [StoredChange]) {
        writers.withLock {
            state.withLock { state in
                state.values = values
                state.revision &+= 1
                broadcaster.publish(changes)
            }
        }
    }

    private func commit(_ value: StoredValue?, forKey key: String, in state: inout State) throws {
        // First: `state.values[key]` would find a canonically equivalent key of other scalars.
        try checkNoCanonicallyEquivalentKey(key, in: state.values)
        let old = state.values[key]
        if old.isIdentical(to: value) { return }
        state.values[key] = value
        state.revision &+= 1
        broadcaster.publish(StoredChange(key: key, value: value))
    }

    package func changes() -> AsyncStream<StoredChange> {
        broadcaster.subscribe()
    }

    /// Throws ``StorageError/Code/reentrantWrite`` naming `key` when an `update` body of this
    /// storage runs on this thread.
    private func checkOutsideUpdateBody(forKey key: String) throws {
        do {
            try UpdateScope.checkOutsideUpdateBody(of: media)
        } catch let error as StorageError {
            throw error.adding(key: key)
        }
    }

    /// The value of `key` and a stream of every change to it after that, as one step.
    package func subscription(readingValueForKey key: String) -> KeySubscription {
        // Commits publish under `state`, so subscribing under it splits the changes exactly.
        state.withLock { state in
            KeySubscription(value: state.values[key], broadcaster.subscription(key: key))
        }
    }
}
