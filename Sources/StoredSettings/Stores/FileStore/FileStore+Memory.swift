import Foundation

extension FileStore {
    /// Everything a ``FileStore`` keeps in memory, under its one lock ``FileStore/memory``: the
    /// values, the changes not yet written, what the change check compares the file with, the
    /// group commit's queue and the subscribers. Held for a read or a commit, never across the
    /// disk or user code, so neither a setter on the main thread nor the change check waits for
    /// a write in progress.
    struct Memory: Sendable {
        var values: [String: StoredValue]
        /// Grows with every commit, written here or loaded from the file.
        var revision: UInt64 = 0
        /// Each key set in memory since the last write that took it (every set in
        /// ``WriteMode/writeBehind`` mode, and those of ``setValueInBackground(_:forKey:)``), with
        /// its newest value (`nil`: removed).
        var pending: [String: StoredValue?] = [:]
        /// Whether a run of the background writer is queued and has not taken the pending
        /// changes yet.
        var writerScheduled = false
        var versions = Versions()
        /// The `setValue` calls waiting for the write in progress.
        var group = WriteQueue()
        var subscribers = ChangeBroadcaster.Subscribers()
        /// Calls to subscribers of a set of keys that commits made, for the committing thread to
        /// make once it holds no lock of this store (``FileStore/deliverAnnouncements()``).
        var announcements = ChangeBroadcaster.Announcements()

        /// Commits `value` under `key` (removes it for `nil`) and publishes the change, unless it
        /// changes nothing.
        ///
        /// - Throws: ``StorageError/Code/invalidKey`` for an invalid key, or one canonically
        ///   equivalent to a stored key of other scalars.
        mutating func setValue(_ value: StoredValue?, forKey key: String) throws {
            try StorageError.validate(key: key, writingInto: values, location: nil)
            guard !values[key].isIdentical(to: value) else { return }
            values[key] = value
            revision &+= 1
            publish(CollectionOfOne(StoredChange(key: key, value: value)))
        }

        /// Makes `values` the values, publishing `changes` in order (several of one key each
        /// delivered): a group committed to the file first.
        mutating func replace(with values: [String: StoredValue], publishing changes: [StoredChange]) {
            self.values = values
            revision &+= 1
            publish(changes)
        }

        /// Makes `values` the values, publishing one change per key that differs: a file read.
        mutating func replaceAll(with values: [String: StoredValue]) {
            var changes: [StoredChange] = []
            for key in self.values.keys where values[key] == nil {
                changes.append(StoredChange(key: key, value: nil))
            }
            for (key, new) in values where !self.values[key].isIdentical(to: new) {
                changes.append(StoredChange(key: key, value: new))
            }
            guard !changes.isEmpty else { return }
            replace(with: values, publishing: changes)
        }

        /// Hands `changes` to every stream of their keys, under this lock, so streams see commits
        /// in commit order; keeps the calls to subscribers of a set of keys for later.
        private mutating func publish(_ changes: some Collection<StoredChange>) {
            guard subscribers.count > 0, !changes.isEmpty else { return }
            let (deliveries, calls) = subscribers.deliveries(of: changes)
            // Safe under the lock: a stream's end never waits for it (``endSubscription(_:key:)``).
            for delivery in deliveries {
                guard case .terminated = delivery.continuation.yield(delivery.change) else { continue }
                // A stream that ended while the lock was held; its continuation runs no code when
                // released.
                _ = subscribers.remove(delivery.id, key: delivery.key)
            }
            announcements.append(contentsOf: calls)
        }
    }

    /// Makes `values`, just read or written, the values in memory under the pending changes. A
    /// reload (`changes` nil) publishes what differs; a write publishes its `changes` in order, but
    /// not those memory shows or a newer pending change covers. The `written` changes stop being
    /// pending (never written back); a refused one stays for the writer to report.
    func install(
        _ values: [String: StoredValue], publishing changes: [StoredChange]?, including written: [String: StoredValue?]
    ) {
        memory.withLock { memory in
            guard let changes else {
                return memory.replaceAll(with: Self.overlaying(memory.pending, on: values))
            }
            if memory.pending.isEmpty { return memory.replace(with: values, publishing: changes) }
            memory.pending = memory.pending.filter { key, value in
                if let index = values.index(forKey: key), !values.keys[index].hasSameScalars(as: key) { return true }
                return !values[key].isIdentical(to: value) && !(written[key].map { $0.isIdentical(to: value) } ?? false)
            }
            // Each change against the value before it, starting from memory; none of a key still
            // pending, whose newer value memory shows and its setter published.
            var current = memory.values
            let fresh = changes.filter { change in
                defer { current[change.key] = change.value }
                return memory.pending[change.key] == nil && !current[change.key].isIdentical(to: change.value)
            }
            memory.replace(with: Self.overlaying(memory.pending, on: values), publishing: fresh)
        }
    }

    /// `values` with the changes not yet written on top, and those changes (none for a durable
    /// store).
    func overlayingPending(
        _ values: [String: StoredValue]
    ) -> (values: [String: StoredValue], pending: [String: StoredValue?]) {
        let pending = memory.withLock { $0.pending }
        return (Self.overlaying(pending, on: values), pending)
    }

    /// The values in memory and the changes among them not yet written, read together.
    func valuesWithPending() -> (values: [String: StoredValue], pending: [String: StoredValue?]) {
        memory.withLock { ($0.values, $0.pending) }
    }

    private static func overlaying(
        _ pending: [String: StoredValue?], on values: [String: StoredValue]
    ) -> [String: StoredValue] {
        var values = values
        for (key, value) in pending {
            // A key canonically equivalent to a stored key of other scalars is one a write
            // refuses: it never changes that key (the writer drops it).
            if let index = values.index(forKey: key), !values.keys[index].hasSameScalars(as: key) { continue }
            values[key] = value
        }
        return values
    }

    /// Makes the calls to subscribers of a set of keys that commits kept back; called once the
    /// thread holds no lock of this store.
    func deliverAnnouncements() {
        memory.withLock { memory in
            defer { memory.announcements = ChangeBroadcaster.Announcements() }
            return memory.announcements
        }.deliver()
    }

    /// A new stream of every change committed from now on (only `key`'s when given), with the
    /// value of `key` read in the same step.
    func subscribe(readingValueForKey key: String?) -> (
        value: StoredValue?, stream: AsyncStream<StoredChange>, continuation: AsyncStream<StoredChange>.Continuation
    ) {
        let (stream, continuation) = AsyncStream<StoredChange>.makeStream(bufferingPolicy: .unbounded)
        let (value, id) = memory.withLock { memory in
            (key.flatMap { memory.values[$0] }, memory.subscribers.add(continuation, key: key))
        }
        continuation.onTermination = { [weak self] _ in self?.endSubscription(id, key: key) }
        return (value, stream, continuation)
    }

    /// Removes an ended stream. A stream ends under locks of its own (a cancelled task's), which
    /// a commit yielding to it under ``memory`` may wait for: so it never waits for ``memory``.
    /// When the lock is taken, the next change for the stream finds it ended and removes it.
    private func endSubscription(_ id: Int, key: String?) {
        let removed = memory.withLockIfAvailable { $0.subscribers.remove(id, key: key) }
        // Released here, outside the lock.
        withExtendedLifetime(removed) {}
    }

    /// A subscription to a set of keys with a handler per key (``KeyHandlerSubscription``):
    /// followers are kept in ``memory``; their calls are made once the committing thread holds
    /// no lock of this store.
    func keyHandlerSubscription() -> KeyHandlerSubscription {
        let id = memory.withLock { $0.subscribers.addKeySet() }
        return KeyHandlerSubscription(
            follow: { [weak self] key, onChange in
                self?.memory.withLock { $0.subscribers.follow(key, id: id, onChange: onChange) }
            },
            end: { [weak self] in
                let removed = self?.memory.withLock { $0.subscribers.remove(id, key: nil) }
                withExtendedLifetime(removed) {}
            })
    }
}
