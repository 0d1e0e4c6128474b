import Foundation

extension FileStore {
    /// One ``FileStore/setValue(_:forKey:)`` waiting in a ``WriteQueue``.
    struct QueuedWrite: Sendable {
        let id: UInt64
        let key: String
        let value: StoredValue?
        /// Signalled when the write's outcome is in, or when its thread may lead the next group.
        let wakeUp: DispatchSemaphore
    }

    /// A store's group commit (<doc:ConfigurationFiles>), in ``Memory``: writes queued behind the
    /// one in progress; when it ends, one of them leads and commits them all, in order, as one
    /// write.
    struct WriteQueue: Sendable {
        var waiting: [QueuedWrite] = []
        var outcomes: [UInt64: StorageError?] = [:]
        var leading = false
        var nextID: UInt64 = 0
    }

    /// Queues `key`'s new `value` and returns once this thread or another committed it, or throws
    /// what its commit threw. The leader commits on its thread, no lock held, marked with
    /// ``groupMedia``: a write it makes meanwhile (an error handler's) goes alone.
    private func submit(key: String, value: StoredValue?) throws {
        let wakeUp = DispatchSemaphore(value: 0)
        let id = memory.withLock { memory in
            defer { memory.group.nextID &+= 1 }
            memory.group.waiting.append(QueuedWrite(id: memory.group.nextID, key: key, value: value, wakeUp: wakeUp))
            return memory.group.nextID
        }
        var waited = false
        while true {
            // Either this write's outcome is in, or no one leads and this thread takes the queue;
            // otherwise it waits to be woken for one of the two.
            let (outcome, group): (StorageError??, [QueuedWrite]?) = memory.withLock { memory in
                if let outcome = memory.group.outcomes.removeValue(forKey: id) { return (outcome, nil) }
                guard !memory.group.leading else { return (nil, nil) }
                memory.group.leading = true
                defer { memory.group.waiting.removeAll(keepingCapacity: true) }
                return (nil, memory.group.waiting)
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
            // A group holding a write that was counted as queued counts again; a lone write that
            // never waited leaves the counter alone.
            if waited || group.count > 1 { countQueued() }
            // Observers hear of the group once this thread leads no more: one that writes this
            // store then joins the next group.
            let own = UpdateScope.holdingAnnouncements { () -> StorageError? in
                var results = UpdateScope.runMarked(groupMedia, key: nil) { commit(group) }
                let own = results.removeValue(forKey: id) ?? nil
                let next = memory.withLock { memory in
                    memory.group.leading = false
                    memory.group.outcomes.merge(results) { _, new in new }
                    return memory.group.waiting.first
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

    /// Sets ``queuedWrites`` to the writes waiting now; read inside its lock, so the last one set
    /// is the current count.
    private func countQueued() {
        queuedWrites.withLock { $0 = memory.withLock { $0.group.waiting.count } }
    }

    /// ``setValue(_:forKey:)`` through the group commit, `key` validated. Inside an `update` body
    /// on this thread it writes alone, so `reentrantWrite` reaches its caller only.
    func commitInGroup(_ value: StoredValue?, forKey key: String) throws {
        if UpdateScope.isInsideUpdateBody || UpdateScope.isInsideUpdateBody(of: groupMedia) {
            try update(forKey: key) { $0 = value }
            return
        }
        do {
            try submit(key: key, value: value)
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
