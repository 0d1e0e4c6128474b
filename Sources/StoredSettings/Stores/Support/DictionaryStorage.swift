import Foundation

/// A thread-safe dictionary of stored values with change delivery: the shared core of the
/// in-memory, environment, command-line and file stores.
///
/// It keeps the ``Storable`` contract: keys validated on write, writes of an identical value
/// commit nothing, `update` atomic, every commit bumps the revision and is published in order.
///
/// `state` guards the values, only for the moment of a read or a commit. An `update` is a
/// read-change-commit sequence: it opens under `state` with its read, naming its thread, runs
/// its body with no lock held, and closes under `state` with its commit. While one is open,
/// every other writer (a write, an update, a replacement) waits on `gate`, a condition the
/// closing commit broadcasts, so nothing lands between an update's read and its commit. While
/// none is open, which is nearly always, a write or an update takes `state` and nothing else:
/// a write costs what a locked dictionary set does, an update two lock rounds. No user code (an
/// `update` body, an encoder) runs while `state` is held, so a body that reads this store
/// neither deadlocks nor makes an overlapping `inout` access.
///
/// A write from inside an `update` body to the same storage throws
/// ``StorageError/Code/reentrantWrite``: it would otherwise wait for itself. The open sequence
/// names its thread, so a write that finds one open by its own thread is that body's write.
///
/// A backend of your own that keeps its values in memory (loaded from a medium, or read-only)
/// can forward every ``Storable`` requirement to one, as `InMemoryStore` does, and conform to
/// ``ChangeSnapshotting`` through ``subscription(readingValueForKey:)``.
///
/// Thread-safety: every member may be used from any thread or task.
public final class DictionaryStorage: Sendable {
    package struct State: Sendable {
        package var values: [String: StoredValue]
        package var revision: UInt64 = 0
        /// How many read-change-commit sequences are open between their read and their commit:
        /// zero or one, since a sequence opens only while none is. Other writers wait while
        /// it is one.
        var openSequences = 0
        /// The key of the open sequence, for the refusal of a write from inside its body.
        var openKey = ""
        /// The thread running the open sequence's body.
        var owner: ThreadIdentity?
        /// At least the number of threads waiting on `gate` for the open sequence to close:
        /// the closing commit broadcasts only when it is above zero.
        var waiters = 0
        /// At least the number of streams subscribed through this storage: raised under this
        /// lock by every subscription, lowered to the broadcaster's count by every publish. A
        /// commit skips the broadcaster while it is zero.
        var subscribers = 0
        /// Whether every key in `values` is valid (``StorageError/validate(key:location:)``):
        /// then a write to a key already present, with the same scalars, needs no validation.
        /// Seeds and replacements may hold keys a write would refuse, so they recompute it.
        var keysAreValid: Bool

        init(values: [String: StoredValue]) {
            self.values = values
            keysAreValid = Self.areValid(values.keys)
        }

        static func areValid(_ keys: some Sequence<String>) -> Bool {
            keys.allSatisfy { (try? StorageError.validate(key: $0)) != nil }
        }

        /// The slot of `key`, after checking that a write may use it: the key is valid, and no
        /// canonically equivalent key of other scalars is stored.
        ///
        /// - Throws: ``StorageError/Code/invalidKey``.
        @inline(__always)
        func checkedIndex(forKey key: String) throws -> [String: StoredValue].Index? {
            guard let index = values.index(forKey: key) else {
                try StorageError.validate(key: key)
                return nil
            }
            // `String ==` found it, so it may be a canonically equivalent key of other scalars.
            let existing = values.keys[index]
            let sameScalars = existing.hasSameScalars(as: key)
            // The same scalars as a key a write already accepted: valid.
            if !keysAreValid || !sameScalars { try StorageError.validate(key: key) }
            if !sameScalars { throw canonicallyEquivalentKeyError(key, existing: existing) }
            return index
        }

        /// Throws unless no read-change-commit sequence is open: called when no other
        /// thread's is (``DictionaryStorage/whenNoOtherSequenceIsOpen(_:)``), an open one is
        /// this thread's, whose body is making the write.
        ///
        /// - Throws: ``StorageError/Code/invalidKey`` (an invalid key is the first thing a write
        ///   reports, as on every backend), then ``StorageError/Code/reentrantWrite``.
        @inline(__always)
        func checkNoSequenceOpen(forKey key: String) throws {
            guard openSequences > 0 else { return }
            try refuseWriteFromOpenSequence(forKey: key)
        }

        /// The refusal of ``checkNoSequenceOpen(forKey:)``, out of line.
        @inline(never)
        private func refuseWriteFromOpenSequence(forKey key: String) throws -> Never {
            try StorageError.validate(key: key)
            throw UpdateScope.reentrantWriteError(updating: openKey).adding(key: key)
        }

        /// Closes the open sequence; whether threads wait for that (broadcast `gate` after
        /// releasing `state`).
        mutating func closeSequence() -> Bool {
            openSequences -= 1
            owner = nil
            defer { waiters = 0 }
            return waiters > 0
        }
    }

    // Private: every mutation goes through this file.
    private let state: Lock<State>
    /// The broadcaster that delivers this storage's commits: for ``ChangeBroadcaster/subscriberCount``
    /// and ``ChangeBroadcaster/waitForSubscriberCount(_:)``.
    public let broadcaster = ChangeBroadcaster()
    /// Where writers wait while another thread's sequence is open. Taken before `state`, never
    /// while holding it.
    private let gate = NSCondition()

    /// Creates a storage holding `values`; their keys are not validated, so a seed may hold keys
    /// a write would refuse.
    public init(_ values: [String: StoredValue] = [:]) {
        state = Lock(State(values: values))
    }

    /// The value stored under `key`.
    @inline(__always)
    public func value(forKey key: String) -> StoredValue? {
        state.withLock { $0.values[key] }
    }

    /// The value of `key` and the revision, which grows with every commit, read together.
    @inline(__always)
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        state.withLock { ($0.values[key], $0.revision) }
    }

    /// Every key that holds a value, in no particular order.
    public func keys() -> [String] {
        state.withLock { Array($0.values.keys) }
    }

    /// How many read-change-commit sequences are open now (zero between updates).
    package var openSequenceCount: Int {
        state.withLock { $0.openSequences }
    }

    /// At least how many threads wait for the open sequence to close (for tests: the body of
    /// an update waits on it to know that another writer provably waits for its commit).
    package var waitingWriterCount: Int {
        state.withLock { $0.waiters }
    }

    /// Every stored value, by key.
    public var snapshot: [String: StoredValue] {
        state.withLock { $0.values }
    }

    /// Stores `value` under `key`, or removes the key when `value` is `nil`.
    ///
    /// - Throws: ``StorageError/Code/invalidKey`` (checked first), then
    ///   ``StorageError/Code/reentrantWrite`` from inside an update body of this storage.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        // No sequence open: nothing can land between a read and a commit, so `state` suffices.
        // Nor is this a write from an update body of this storage: every body runs inside one.
        let committed = try state.withLock { state in
            guard state.openSequences == 0 else { return false }
            try commit(value, forKey: key, at: state.checkedIndex(forKey: key), in: &state)
            return true
        }
        if committed { return }
        try setValueOnceNoOtherSequenceIsOpen(value, forKey: key)
    }

    /// ``setValue(_:forKey:)`` once no other thread's sequence is open: out of line, so that
    /// the one-lock path stays small.
    @inline(never)
    private func setValueOnceNoOtherSequenceIsOpen(_ value: StoredValue?, forKey key: String) throws {
        try whenNoOtherSequenceIsOpen { state, _ in
            // Still open: this thread's, so its update body is writing.
            try state.checkNoSequenceOpen(forKey: key)
            try commit(value, forKey: key, at: state.checkedIndex(forKey: key), in: &state)
        }
    }

    /// Runs `body` on the value of `key` and commits the result, with no other write between.
    ///
    /// `body` runs outside the value lock: it may read this store. A write it makes to this
    /// storage from the same thread throws ``StorageError/Code/reentrantWrite``.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        // Opened with the read, closed with the commit (or the body's error): other writers
        // wait in between. So the slot found by the read is still the key's at the commit,
        // unless this thread replaced the values meanwhile (the revision tells).
        let (index, revision, start) = try whenNoOtherSequenceIsOpen { state, thread in
            // Still open: this thread's, so this is an update from inside its own body.
            try state.checkNoSequenceOpen(forKey: key)
            let index = try state.checkedIndex(forKey: key)
            state.openSequences += 1
            // Kept from the last update when it is the same string: no reference counting.
            if !state.openKey.hasSameRepresentation(as: key) { state.openKey = key }
            state.owner = thread
            return (index, state.revision, index.map { state.values.values[$0] })
        }
        var value = start
        let result: R
        do {
            result = try body(&value)
        } catch {
            if state.withLock({ $0.closeSequence() }) { wakeWaiters() }
            throw error
        }
        var waited = false
        defer { if waited { wakeWaiters() } }
        try state.withLock { state in
            waited = state.closeSequence()
            let slot = state.revision == revision ? index : try state.checkedIndex(forKey: key)
            try commit(value, forKey: key, at: slot, in: &state)
        }
        return result
    }

    /// Runs `work` under `state` at a moment when no other thread's sequence is open, after
    /// waiting on `gate` for it to close if one is. `work` gets the calling thread; a sequence
    /// it finds open is that thread's own.
    private func whenNoOtherSequenceIsOpen<T>(_ work: (inout State, ThreadIdentity) throws -> T) rethrows -> T {
        let thread = ThreadIdentity.current
        // Nearly always: nothing is open, and this is one lock round.
        if let result = try state.withLock({ state -> T? in
            guard state.openSequences == 0 || state.owner == thread else { return nil }
            return try work(&state, thread)
        }) {
            return result
        }
        // The closing commit broadcasts only after it released `state`, and only under `gate`,
        // which this thread holds from its check until `wait` releases it: no wake-up is lost.
        gate.lock()
        defer { gate.unlock() }
        while true {
            if let result = try state.withLock({ state -> T? in
                guard state.openSequences == 0 || state.owner == thread else {
                    state.waiters += 1
                    return nil
                }
                return try work(&state, thread)
            }) {
                return result
            }
            gate.wait()
        }
    }

    /// Wakes the threads waiting on `gate` for a sequence that has closed.
    private func wakeWaiters() {
        gate.lock()
        gate.broadcast()
        gate.unlock()
    }

    /// Replaces every value at once, publishing one change per key that differs.
    package func replaceAll(with values: [String: StoredValue]) {
        whenNoOtherSequenceIsOpen { state, _ in
            var changes: [StoredChange] = []
            for key in state.values.keys where values[key] == nil {
                changes.append(StoredChange(key: key, value: nil))
            }
            for (key, new) in values where !state.values[key].isIdentical(to: new) {
                changes.append(StoredChange(key: key, value: new))
            }
            guard !changes.isEmpty else { return }
            state.values = values
            state.keysAreValid = State.areValid(values.keys)
            state.revision &+= 1
            if state.subscribers > 0 { state.subscribers = broadcaster.publish(changes) }
        }
    }

    /// Replaces the values with `values`, which differ from the current ones exactly at
    /// `changedKeys`, and publishes those keys: ``replaceAll(with:)`` without comparing every
    /// key, for a store that commits elsewhere first (a file) and knows what it changed.
    ///
    /// Waits, like every other write, for another thread's open read-change-commit sequence, so
    /// it never lands inside one.
    package func replace(with values: [String: StoredValue], changedKeys: [String]) {
        whenNoOtherSequenceIsOpen { state, _ in
            state.keysAreValid = state.keysAreValid ? State.areValid(changedKeys) : State.areValid(values.keys)
            state.values = values
            state.revision &+= 1
            if state.subscribers > 0 {
                state.subscribers = broadcaster.publish(
                    changedKeys.map { StoredChange(key: $0, value: values[$0]) })
            }
        }
    }

    /// Replaces the values with `values` and publishes `changes`, in order: the changes of a
    /// group of writes committed elsewhere first (a file), each delivered once even when
    /// several change one key.
    ///
    /// Waits, like every other write, for another thread's open sequence.
    package func replace(with values: [String: StoredValue], publishing changes: [StoredChange]) {
        whenNoOtherSequenceIsOpen { state, _ in
            state.keysAreValid =
                state.keysAreValid ? State.areValid(changes.lazy.map(\.key)) : State.areValid(values.keys)
            state.values = values
            state.revision &+= 1
            if state.subscribers > 0 { state.subscribers = broadcaster.publish(changes) }
        }
    }

    /// Commits `value` under `key`, whose slot ``State/checkedIndex(forKey:)`` found (`nil`:
    /// the key is absent), publishing the change unless it changes nothing.
    private func commit(
        _ value: StoredValue?, forKey key: String, at index: [String: StoredValue].Index?, in state: inout State
    ) throws {
        if let index {
            if let value {
                // One access to the slot, to compare and to replace, and no copy of the old value.
                guard replace(&state.values.values[index], with: value) else { return }
            } else {
                state.values.remove(at: index)
            }
        } else {
            guard let value else { return }
            state.values[key] = value
        }
        state.revision &+= 1
        if state.subscribers > 0 { state.subscribers = broadcaster.publish(StoredChange(key: key, value: value)) }
    }

    /// Puts `value` in `slot` unless it holds an identical value; whether it did.
    @inline(__always)
    private func replace(_ slot: inout StoredValue, with value: StoredValue) -> Bool {
        if slot.isIdentical(to: value) { return false }
        slot = value
        return true
    }

    /// A stream of every change committed from now on, in order, each once.
    public func changes() -> AsyncStream<StoredChange> {
        // Under `state`, so no commit sees the count without this stream.
        state.withLock { state in
            state.subscribers += 1
            return broadcaster.subscribe()
        }
    }

    /// The value of `key` and a stream of every change to it after that, as one step.
    public func subscription(readingValueForKey key: String) -> KeySubscription {
        // Commits publish under `state`, so subscribing under it splits the changes exactly.
        state.withLock { state in
            state.subscribers += 1
            return KeySubscription(value: state.values[key], broadcaster.subscription(key: key))
        }
    }
}
