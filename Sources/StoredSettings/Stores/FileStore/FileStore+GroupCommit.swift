import Foundation

extension FileStore {
    /// One ``FileStore/setValue(_:forKey:)`` waiting in a ``WriteGroup``.
    struct QueuedWrite: Sendable {
        let id: UInt64
        let key: String
        let value: StoredValue?
        /// Signalled when the write's outcome is in, or when its thread may lead the next group.
        let wakeUp: DispatchSemaphore
    }

    /// A store's group commit (<doc:ConfigurationFiles>): writes queued behind the one in progress;
    /// when it ends, one of them leads and commits them all, in order, as one write.
    final class WriteGroup: Sendable {
        private struct State {
            var pending: [QueuedWrite] = []
            var outcomes: [UInt64: StorageError?] = [:]
            var leading = false
            var nextID: UInt64 = 0
        }

        private let state = Lock(State())
        /// The leader's mark in ``UpdateScope`` while it commits.
        var media: [String] { ["group commit " + UpdateScope.medium(self)] }
        /// How many writes wait behind the one in progress (for tests).
        let queued = AwaitableState(0)

        /// Queues `key`'s new `value` and returns once this thread or another committed it, or
        /// throws what its commit threw. `commitGroup` runs on the leader's thread, no lock held,
        /// marked with ``media``: a write it makes meanwhile (an error handler's) goes alone.
        func submit(key: String, value: StoredValue?, commitGroup: ([QueuedWrite]) -> [UInt64: StorageError?]) throws {
            let wakeUp = DispatchSemaphore(value: 0)
            let id = state.withLock { state in
                defer { state.nextID &+= 1 }
                state.pending.append(QueuedWrite(id: state.nextID, key: key, value: value, wakeUp: wakeUp))
                return state.nextID
            }
            var waited = false
            while true {
                // Either this write's outcome is in, or no one leads and this thread takes
                // the queue; otherwise it waits to be woken for one of the two.
                let (outcome, group): (StorageError??, [QueuedWrite]?) = state.withLock { state in
                    if let outcome = state.outcomes.removeValue(forKey: id) { return (outcome, nil) }
                    guard !state.leading else { return (nil, nil) }
                    state.leading = true
                    defer { state.pending.removeAll(keepingCapacity: true) }
                    return (nil, state.pending)
                }
                if let outcome {
                    if let outcome { throw outcome }
                    return
                }
                guard let group else {
                    countQueued()
                    waited = true
                    wakeUp.wait()
                    continue
                }
                // A group holding a write that was counted as queued counts again; a lone
                // write that never waited leaves the counter alone.
                if waited || group.count > 1 { countQueued() }
                // Observers hear of the group once this thread leads no more: one that writes
                // this store then joins the next group.
                let own = UpdateScope.holdingAnnouncements { () -> StorageError? in
                    var results = UpdateScope.runMarked(media, key: nil) { commitGroup(group) }
                    let own = results.removeValue(forKey: id) ?? nil
                    let next = state.withLock { state in
                        state.leading = false
                        state.outcomes.merge(results) { _, new in new }
                        return state.pending.first
                    }
                    for write in group where write.id != id { write.wakeUp.signal() }
                    // The first write queued meanwhile leads next, unless a newcomer leads first.
                    next?.wakeUp.signal()
                    return own
                }
                if let own { throw own }
                return
            }
        }

        /// Sets ``queued`` to the writes waiting now; read inside its lock, so the last one set
        /// is the current count.
        private func countQueued() {
            queued.withLock { $0 = state.withLock { $0.pending.count } }
        }
    }

    /// How many ``setValue(_:forKey:)`` calls wait to join the next group (for tests).
    package var queuedWrites: AwaitableState<Int> { writeGroup.queued }

    /// ``setValue(_:forKey:)`` through the ``WriteGroup``, `key` validated. Inside an `update` body
    /// on this thread it writes alone, so `reentrantWrite` reaches its caller only.
    func commitInGroup(_ value: StoredValue?, forKey key: String) throws {
        if UpdateScope.isInsideUpdateBody || UpdateScope.isInsideUpdateBody(of: writeGroup.media) {
            try update(forKey: key) { $0 = value }
            return
        }
        do {
            try writeGroup.submit(key: key, value: value) { group in
                commit(group)
            }
        } catch let error as StorageError {
            throw error.adding(key: key, location: path)
        }
    }

    /// Commits `group` as one write: a key conflict fails its member alone, a failed write fails
    /// all; when the file cannot be encoded or is too large, each member is committed alone.
    private func commit(_ group: [QueuedWrite]) -> [UInt64: StorageError?] {
        do {
            return try commitChanges { values in
                var outcomes: [UInt64: StorageError?] = [:]
                var changes: [StoredChange] = []
                for write in group {
                    do {
                        try checkNoCanonicallyEquivalentKey(write.key, in: values)
                    } catch {
                        outcomes[write.id] = Self.storageError(error, path: path)
                        continue
                    }
                    outcomes[write.id] = .some(nil)
                    guard !values[write.key].isIdentical(to: write.value) else { continue }
                    values[write.key] = write.value
                    changes.append(StoredChange(key: write.key, value: write.value))
                }
                return (outcomes, changes)
            }
        } catch let error as StorageError
            where group.count > 1 && (error.code == .encodingFailed || error.code == .tooLarge)
        {
            var outcomes: [UInt64: StorageError?] = [:]
            for write in group { outcomes[write.id] = commit([write])[write.id] ?? nil }
            return outcomes
        } catch {
            let failure = Self.storageError(error, path: path)
            return Dictionary(uniqueKeysWithValues: group.map { ($0.id, failure) })
        }
    }

    /// `error` as a ``StorageError``; another error (none is expected) becomes an I/O error
    /// naming the file.
    private static func storageError(_ error: any Error, path: String) -> StorageError {
        error as? StorageError ?? StorageError(.io, location: path, message: "the write failed: \(error)")
    }
}
