import Foundation

extension FileStore {
    /// Called by the watcher: reloads the file when its fingerprint changed, publishing the
    /// changes once through ``changes()`` and bumping the revision. A file that does not parse
    /// (or is not a regular file, or was emptied after it held settings) is reported once per
    /// version and leaves the values in memory as they are; a path the check cannot follow (a
    /// symbolic link the `fs.protected_symlinks` rule refuses) is reported once until it
    /// changes.
    package func checkForExternalChange() {
        // The common case, nothing changed, costs one `lstat` and one `stat` and never waits
        // for a write in progress.
        if let target = try? FileSystem.resolvingSymbolicLinks(url.path),
           let unchanged = try? FileSystem.fingerprint(atPath: target) == loadedFingerprint.value,
           unchanged {
            return
        }
        var problem: StorageError?
        file.withLock { state in
            do {
                let target = try FileSystem.resolvingSymbolicLinks(url.path)
                let current = try FileSystem.fingerprint(atPath: target)
                state.reportedPathProblem = nil
                guard current != state.fingerprint else { return }
                if let current, current == state.reportedBadFingerprint { return }
                var reports: [StorageError] = []
                do {
                    _ = try refresh(&state, target: target, underFileLock: false, reports: &reports)
                } catch let error as StorageError {
                    state.reportedBadFingerprint = current
                    problem = error
                }
            } catch {
                let error = (error as? StorageError)?.adding(path: url.path) ?? StorageError(.io, wrapping: error, path: url.path)
                guard error != state.reportedPathProblem else { return }
                state.reportedPathProblem = error
                problem = error
            }
        }
        if let problem { StorageErrorReporter.report(problem) }
    }
}

/// A repeating check for external changes of one ``FileStore``.
///
/// It is an entry in ``ChangeCheckScheduler/shared``: one thread for every store in the
/// process, which needs no file descriptor (a Dispatch timer source on Linux needs an `epoll`
/// descriptor, an `eventfd` and a timer descriptor the first time, and traps when the process
/// has none free). The handler holds the store weakly; the store cancels its watcher when it is
/// released, so nothing outlives it.
final class FileWatcher: Sendable {
    private let entry: ChangeCheckScheduler.Entry

    init(interval: Duration, handler: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = interval.components
        let nanoseconds = max(1_000_000, Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000))
        entry = ChangeCheckScheduler.shared.add(everyNanoseconds: UInt64(nanoseconds), handler)
    }

    /// Stops the checks; a check already running finishes.
    func cancel() {
        ChangeCheckScheduler.shared.remove(entry)
    }

    deinit {
        cancel()
    }
}
