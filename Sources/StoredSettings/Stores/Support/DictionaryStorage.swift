import Foundation

/// A thread-safe dictionary of stored values with change delivery: the shared core of the
/// in-memory and file stores.
///
/// It keeps the ``Storable`` contract: keys validated on write, identical writes commit
/// nothing, `update` atomic, every commit bumps the revision and is published in order. A
/// write from inside an `update` body of the same storage throws
/// ``StorageError/Code/reentrantWrite``. A backend that keeps its values in memory can
/// forward every requirement to one (<doc:ImplementingABackend>).
///
/// Thread-safety: every member may be used from any thread or task; an `update` body runs
/// with no lock on the values held, so it may read this storage.
public final class DictionaryStorage: Sendable {
    struct State: Sendable {
        var values: [String: StoredValue]
        var revision: UInt64 = 0
        /// Whether an update is between its read and its commit (for tests).
        var openSequences = 0
        /// How many writers wait for `writers` (for tests).
        var waiters = 0
        /// At least the broadcaster's subscriber count (raised here by every subscription), so
        /// a commit skips the broadcaster while it is zero.
        var subscribers = 0
        /// Whether every key in `values` is valid, so a write to a present key needs no
        /// validation; `nil` until a write needs it (seeds may hold invalid keys).
        var keysAreValid: Bool?

        init(values: [String: StoredValue]) {
            self.values = values
        }

        static func areValid(_ keys: some Sequence<String>) -> Bool {
            keys.allSatisfy { (try? StorageError.validate(key: $0)) != nil }
        }

        /// The slot of `key`, after checking that a write may use it: the key is valid, and no
        /// canonically equivalent key of other scalars is stored.
        ///
        /// - Throws: ``StorageError/Code/invalidKey``.
        @inline(__always)
        mutating func checkedIndex(forKey key: String) throws -> [String: StoredValue].Index? {
            guard let index = values.index(forKey: key) else {
                try StorageError.validate(key: key)
                return nil
            }
            // `String ==` found it, so it may be a canonically equivalent key of other scalars.
            let existing = values.keys[index]
            let sameScalars = existing.hasSameScalars(as: key)
            // The same scalars as a key a write already accepted: valid.
            if keysAreValid == nil { keysAreValid = Self.areValid(values.keys) }
            if keysAreValid != true || !sameScalars { try StorageError.validate(key: key) }
            if !sameScalars { throw canonicallyEquivalentKeyError(key, existing: existing) }
            return index
        }
    }

    /// The values, held only for a read or a commit, never while user code runs.
    private let state: Lock<State>
    /// Delivers this storage's commits; private, so nothing publishes a change never committed.
    private let broadcaster = ChangeBroadcaster()
    /// Held by a writer for its commit, and by an update from its read to its commit, body
    /// included, so nothing lands between. Taken before `state`, never while holding it.
    private let writers: Lock<Int>
    /// This storage's name in ``UpdateScope``'s marks.
    private let media: [String]

    /// Creates a storage holding `values`; their keys are not validated, so a seed may hold keys
    /// a write would refuse.
    public init(_ values: [String: StoredValue] = [:]) {
        state = Lock(State(values: values))
        let writers = Lock(0)
        self.writers = writers
        media = [UpdateScope.medium(writers)]
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

    /// How many change streams and key-set subscriptions are subscribed now; drops back when
    /// consumers stop.
    public var subscriberCount: Int { broadcaster.subscriberCount }

    /// Returns once exactly `count` subscriptions are subscribed (at once when they are), or when
    /// the calling task is cancelled; waits on the subscriptions' own events, never on a clock.
    public func waitForSubscriberCount(_ count: Int) async {
        await broadcaster.waitForSubscriberCount(count)
    }

    /// How many updates are between their read and their commit now (zero or one).
    package var openSequenceCount: Int {
        state.withLock { $0.openSequences }
    }

    /// How many writers wait for another writer or update to finish (for tests).
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
        try checkOutsideUpdateBody(forKey: key)
        try asWriter {
            try state.withLock { state in
                try commit(value, forKey: key, at: state.checkedIndex(forKey: key), in: &state)
            }
        }.deliver()
    }

    /// Throws ``StorageError/Code/reentrantWrite`` on the thread of an update body of this
    /// storage (``StorageError/Code/invalidKey`` first, as on every backend).
    @inline(__always)
    private func checkOutsideUpdateBody(forKey key: String) throws {
        do {
            try UpdateScope.checkOutsideUpdateBody(of: media)
        } catch let error as StorageError {
            try StorageError.validate(key: key)
            throw error.adding(key: key)
        }
    }

    /// Runs `body` on the value of `key` and commits the result, with no other write between.
    ///
    /// `body` runs outside the value lock: it may read this store. A write it makes to this
    /// storage from the same thread throws ``StorageError/Code/reentrantWrite``.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try checkOutsideUpdateBody(forKey: key)
        let (result, announcements) = try asWriter {
            let (index, start) = try state.withLock { state in
                let index = try state.checkedIndex(forKey: key)
                state.openSequences = 1
                return (index, index.map { state.values.values[$0] })
            }
            var value = start
            let result: R
            do {
                result = try UpdateScope.runMarked(media, key: key) { try body(&value) }
            } catch {
                state.withLock { $0.openSequences = 0 }
                throw error
            }
            // The slot found by the read is still the key's: every other write waits for
            // `writers`, and the body's own are refused.
            let announcements = try state.withLock { state in
                state.openSequences = 0
                return try commit(value, forKey: key, at: index, in: &state)
            }
            return (result, announcements)
        }
        announcements.deliver()
        return result
    }

    /// Runs `work` holding `writers`; a writer that finds it taken counts in
    /// ``waitingWriterCount`` until it has it.
    @inline(__always)
    private func asWriter<R>(_ work: () throws -> R) rethrows -> R {
        var waited = false
        return try UpdateScope.holdingAnnouncements {
            try writers.withLock(ifTaken: {
                waited = true
                state.withLock { $0.waiters += 1 }
            }) { _ in
                if waited { state.withLock { $0.waiters -= 1 } }
                return try work()
            }
        }
    }

    /// Commits `value` under `key`, whose slot ``State/checkedIndex(forKey:)`` found (`nil`:
    /// the key is absent), publishing the change unless it changes nothing.
    private func commit(
        _ value: StoredValue?, forKey key: String, at index: [String: StoredValue].Index?, in state: inout State
    ) throws -> ChangeBroadcaster.Announcements {
        if let index {
            if let value {
                // One access to the slot, to compare and to replace, and no copy of the old value.
                guard replace(&state.values.values[index], with: value) else {
                    return ChangeBroadcaster.Announcements()
                }
            } else {
                state.values.remove(at: index)
            }
        } else {
            guard let value else { return ChangeBroadcaster.Announcements() }
            state.values[key] = value
        }
        state.revision &+= 1
        return publish(CollectionOfOne(StoredChange(key: key, value: value)), in: &state)
    }

    /// Publishes committed `changes` unless nothing is subscribed, returning the calls to make
    /// to subscribers of a set of keys once every lock is released.
    @inline(__always)
    private func publish(
        _ changes: some Collection<StoredChange>, in state: inout State
    ) -> ChangeBroadcaster.Announcements {
        guard state.subscribers > 0 else { return ChangeBroadcaster.Announcements() }
        let (count, announcements) = broadcaster.publishing(changes)
        state.subscribers = count
        return announcements
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

    /// Calls `onChange` with each change to the keys passed to the subscription's `follow`, on
    /// the committing thread once this storage's locks are released (after the commit's change
    /// streams are handed their change); none at first.
    public func keySetSubscription(onChange: @escaping @Sendable (StoredChange) -> Void) -> KeySetSubscription {
        // Under `state`, so no commit sees the count without this subscriber.
        state.withLock { state in
            state.subscribers += 1
            return broadcaster.keySetSubscription(onChange: onChange)
        }
    }
}
