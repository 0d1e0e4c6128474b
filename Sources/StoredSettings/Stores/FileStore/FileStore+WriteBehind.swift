import Foundation

extension FileStore {
    /// When a ``FileStore`` setter returns: after its change is on disk, or as soon as it is in
    /// memory.
    public enum WriteMode: Sendable, Equatable {
        /// ``FileStore/setValue(_:forKey:)`` returns once the file holding the change has been
        /// written, `fsync`ed and renamed into place: the default.
        case durable
        /// ``FileStore/setValue(_:forKey:)`` returns once the change is in memory; a background
        /// writer then writes the changes made meanwhile as one atomic, durable file. For app
        /// interfaces, whose main thread must not wait for the disk. A process that ends before
        /// ``FileStore/flush()`` may lose the changes not yet written, never the file.
        /// ``FileStore/update(forKey:_:)`` and ``FileStore/batch(_:)`` still write before
        /// returning. <doc:PlatformNotes> says more.
        case writeBehind
    }

    /// Writes every change made in memory and not yet written, and returns once it is on disk.
    ///
    /// For a ``WriteMode/writeBehind`` store or ``setValueInBackground(_:forKey:)``: call it
    /// where the changes must survive what follows, such as before the tool exits.
    ///
    /// A change the file cannot take beside the others (a key canonically equivalent to one
    /// stored meanwhile, or the largest while together they are too large) is dropped alone;
    /// memory shows the file's value again, and that change is delivered.
    ///
    /// - Throws: What ``setValue(_:forKey:)`` throws for a failed write (the changes stay
    ///   pending); else the first refusal of a dropped change, once the others are written
    ///   (further ones go to ``StorageErrorReporter``).
    ///
    /// Thread-safety: may be called from any thread; it waits for a background write in
    /// progress, then writes what is left on the calling thread.
    public func flush() throws {
        guard !memory.withLock({ $0.pending.isEmpty }) else { return }
        var refusals: [StorageError] = []
        do {
            while true {
                do {
                    try writePending(refusals: &refusals)
                    break
                } catch let refused as PendingRefused {
                    // Under one file lock, so no write builds on the dropped value. `nil`: another
                    // flush dropped one meanwhile; try again.
                    var dropped: String?
                    try? reload { dropped = dropLargest(of: refused.tried) }
                    guard let key = dropped else { continue }
                    refusals.append(refused.error.adding(key: key))
                }
            }
        } catch let error as StorageError {
            throw error.adding(location: path)
        }
        guard let first = refusals.first else { return }
        for refusal in refusals.dropFirst() { StorageErrorReporter.report(refusal.adding(location: path)) }
        throw first.adding(location: path)
    }

    /// The file of the pending changes failed the checks of the write (encoding, size): one
    /// of them at least is more than the file can hold beside the others.
    private struct PendingRefused: Error {
        var error: StorageError
        /// The pending changes the refused file held.
        var tried: [String: StoredValue?]
    }

    /// Writes the pending changes as one file, dropping one whose key is canonically equivalent to
    /// a file's key (its refusal goes to `refusals`). Throws ``PendingRefused`` when the checks
    /// refuse the file; after other errors the changes stay pending.
    private func writePending(refusals: inout [StorageError]) throws {
        var tried: [String: StoredValue?] = [:]
        var found: [StorageError] = []
        defer { refusals += found }
        try commitChanges(refused: { PendingRefused(error: $0, tried: tried) }, writesPending: true) { values in
            tried = [:]
            found = []
            let changes = memory.withLock { memory -> [StoredChange] in
                var changes: [StoredChange] = []
                for (key, value) in memory.pending {
                    if let existing = canonicallyEquivalentKey(to: key, in: values) {
                        found.append(canonicallyEquivalentKeyError(key, existing: existing))
                        memory.pending[key] = nil
                        continue
                    }
                    // A value the file holds already keeps the file's text, as a durable write does.
                    if !values[key].isIdentical(to: value) { values[key] = value }
                    tried[key] = value
                    // Published by the setters already; listed so that the file is written.
                    changes.append(StoredChange(key: key, value: value))
                }
                return changes
            }
            return ((), changes)
        }
    }

    /// Drops the pending change of a refused file whose value alone makes the largest file (the
    /// last key among equals); `nil` if another flush or a setter changed it meanwhile.
    private func dropLargest(of pending: [String: StoredValue?]) -> String? {
        let sizes = pending.map { key, value -> (size: Int, key: String) in
            let bytes = try? fileBytes(
                [key: value ?? .bool(false)], encoding: memory.withLock { $0.versions.encoding },
                source: StoredValueJSON.SourceText(), target: path)
            return (bytes?.count ?? .max, key)
        }
        guard let largest = sizes.max(by: { ($0.size, $0.key) < ($1.size, $1.key) }) else { return nil }
        return memory.withLock { memory in
            guard let value = memory.pending[largest.key], let dropped = pending[largest.key],
                value.isIdentical(to: dropped)
            else { return nil }
            memory.pending[largest.key] = nil
            return largest.key
        }
    }

    /// ``setValue(_:forKey:)`` in write-behind mode: commits in memory, publishing the change,
    /// and queues the background writer unless a run is queued already.
    func setBehind(_ value: StoredValue?, forKey key: String) throws {
        // What a durable write would refuse, refused now: queued, it would fail every write.
        if let value { try checkFileCanHold(value, forKey: key) }
        let schedule = try memory.withLock { memory in
            try memory.setValue(value, forKey: key)
            memory.pending[key] = .some(value)
            defer { memory.writerScheduled = true }
            return !memory.writerScheduled
        }
        deliverAnnouncements()
        guard schedule else { return }
        // Background time on the systems that suspend apps, until the run has written.
        let activity = BackgroundActivity(reason: "StoredSettings background write")
        // A failure goes to the handler bound where the run was queued, else the process's.
        let handler = StorageErrorReporter.taskHandler
        // The run keeps the store alive until its changes are written.
        writer.async { [self] in
            defer { activity.end() }
            memory.withLock { $0.writerScheduled = false }
            do {
                try flush()
            } catch {
                let error = error as? StorageError ?? StorageError(.io, wrapping: error, location: path)
                // Not `TaskLocal.withValue`: this thread runs no task.
                if let handler { handler(error) } else { StorageErrorReporter.report(error) }
            }
        }
    }
}
