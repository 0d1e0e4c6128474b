import Foundation

extension FileStore {
    /// Called by the watcher: reloads the file if its fingerprint changed, publishing the changes;
    /// a bad version is reported once, an unreadable one retried. Never waits for a write of this
    /// store (which may wait on another process's `flock`), as every store shares this thread: the
    /// write checks once it releases ``file``.
    package func checkForExternalChange() {
        checkForExternalChange(counted: true)
    }

    /// ``checkForExternalChange()``; `counted` is false for the checks a store makes itself (on
    /// starting to watch, after a write, on a retry), which ``changeCheckCount`` leaves out.
    func checkForExternalChange(counted: Bool) {
        if counted { memory.withLock { $0.versions.checkCount += 1 } }
        defer { deliverAnnouncements() }
        // Nothing changed, or the file is this store's write in progress, which publishes its
        // own values: no lock needed.
        if let target = try? FileSystem.resolvingSymbolicLinks(path),
            let known = try? isKnownVersion(FileSystem.fingerprint(atPath: target)), known
        {
            return
        }
        let outcome: CheckOutcome
        if let done = file.withLockIfAvailable({ examineFile(&$0) }) {
            outcome = done
        } else {
            memory.withLock { $0.versions.checkDeferred = true }
            // The holder may have released the lock before the mark was set, without seeing it.
            guard let done = file.withLockIfAvailable({ examineFile(&$0) }) else { return }
            outcome = done
        }
        if let problem = outcome.problem { StorageErrorReporter.report(problem) }
        if outcome.readFailed {
            retryAfterFailedRead()
        } else {
            memory.withLock { $0.versions.failedReads = 0 }
        }
        runDeferredChangeCheck()
    }

    /// What one look at the file found: a problem to report, and whether the file could not
    /// be read.
    private struct CheckOutcome {
        var problem: StorageError?
        var readFailed = false
    }

    /// The part of a check that needs ``file``: reads the file when it is not the version in
    /// memory.
    private func examineFile(_ state: inout FileState) -> CheckOutcome {
        var outcome = CheckOutcome()
        do {
            let target = try FileSystem.resolvingSymbolicLinks(path)
            let current = try FileSystem.fingerprint(atPath: target)
            defer { if !outcome.readFailed { state.reportedPathProblem = nil } }
            guard current != state.fingerprint else { return outcome }
            if let current, current == state.reportedBadFingerprint { return outcome }
            var reports: [StorageError] = []
            do {
                _ = try refresh(&state, target: target, underFileLock: false, reports: &reports)
            } catch let error as StorageError where error.code == .io {
                // Not the file's content: no descriptor free, say. The version is read again.
                outcome.readFailed = true
                throw error
            } catch let error as StorageError {
                state.reportedBadFingerprint = current
                outcome.problem = error
            }
        } catch {
            let error =
                (error as? StorageError)?.adding(location: path)
                ?? StorageError(.io, wrapping: error, location: path)
            guard error != state.reportedPathProblem else { return outcome }
            state.reportedPathProblem = error
            outcome.problem = error
        }
        return outcome
    }

    /// Runs `body` under ``file``, then the change check that found the lock taken meanwhile:
    /// the one way this store's writes and reloads take the lock.
    func withFileLock<R>(_ body: (inout FileState) throws -> R) rethrows -> R {
        defer {
            runDeferredChangeCheck()
            // Outside the lock: observers' code may read and write this store.
            deliverAnnouncements()
        }
        return try UpdateScope.holdingAnnouncements { try file.withLock(body) }
    }

    /// Runs the change check left to the holder of ``file``, if one was.
    private func runDeferredChangeCheck() {
        let deferred = memory.withLock { memory in
            defer { memory.versions.checkDeferred = false }
            return memory.versions.checkDeferred
        }
        if deferred { checkForExternalChange(counted: false) }
    }

    /// After a failed read, checks again one ``Options/changeCheckInterval`` later, then doubling
    /// up to 5 s (or the interval) while reads fail: no change may come to wake a check.
    private func retryAfterFailedRead() {
        let failures = memory.withLock { memory in
            memory.versions.failedReads += 1
            return memory.versions.failedReads
        }
        guard let interval = options.changeCheckInterval else { return }
        let (seconds, attoseconds) = interval.components
        let nanoseconds = UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
        let longest = max(nanoseconds, 5_000_000_000)
        var delay = max(nanoseconds, 1_000_000)
        for _ in 1..<min(failures, 64) { delay = delay > longest / 2 ? longest : delay * 2 }
        ChangeCheckScheduler.shared.runOnce(afterNanoseconds: delay) { [weak self] in
            self?.checkForExternalChange(counted: false)
        }
    }

    /// Whether `current` (`nil`: no file) is the version the values in memory come from, or
    /// the one this store's write in progress is renaming into place.
    private func isKnownVersion(_ current: FileFingerprint?) -> Bool {
        let known = memory.withLock { $0.versions }
        return current == known.loaded || (current != nil && current == known.writing)
    }

    /// How many times the store checked its file for external changes since it was opened:
    /// once per batch of events in its folder, or once per interval where it polls.
    package var changeCheckCount: Int { memory.withLock { $0.versions.checkCount } }
}

/// What tells one ``FileStore`` its file may have changed: ``FolderEvents`` where the platform has
/// them, else a `stat` check on ``ChangeCheckScheduler/shared``; cancelled with the store.
final class FileWatcher: Sendable {
    private enum Source: Sendable {
        #if os(Linux) || os(Android) || canImport(Darwin)
        case events([FolderEvents.Registration])
        #endif
        case polling(ChangeCheckScheduler.Entry)
    }

    private let source: Source

    /// Starts watching the file at `path`, and where a symbolic link there points.
    init(path: String, interval: Duration, handler: @escaping @Sendable () -> Void) {
        #if os(Linux) || os(Android) || canImport(Darwin)
        let paths = [path]
        let registrations = paths.compactMap { FolderEvents.shared.add(fileAt: $0, handler: handler) }
        if registrations.count == paths.count {
            source = .events(registrations)
            return
        }
        for registration in registrations { FolderEvents.shared.remove(registration) }
        #endif
        let (seconds, attoseconds) = interval.components
        let nanoseconds = max(1_000_000, Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000))
        source = .polling(ChangeCheckScheduler.shared.add(everyNanoseconds: UInt64(nanoseconds), handler))
    }

    /// Stops the checks; a check already running finishes.
    func cancel() {
        switch source {
        #if os(Linux) || os(Android) || canImport(Darwin)
        case .events(let registrations):
            for registration in registrations { FolderEvents.shared.remove(registration) }
        #endif
        case .polling(let entry): ChangeCheckScheduler.shared.remove(entry)
        }
    }

    deinit {
        cancel()
    }
}
