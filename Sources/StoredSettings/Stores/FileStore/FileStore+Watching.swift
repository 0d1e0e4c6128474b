import Foundation

extension FileStore {
    /// Called by the watcher: reloads the file when its fingerprint changed, publishing the
    /// changes once through ``changes()`` and bumping the revision. A file that does not parse
    /// (or is not a regular file, or was emptied after it held settings) is reported once per
    /// version and leaves the values in memory as they are; a path the check cannot follow (a
    /// symbolic link the `fs.protected_symlinks` rule refuses) is reported once until it
    /// changes.
    package func checkForExternalChange() {
        checkForExternalChange(counted: true)
    }

    /// ``checkForExternalChange()``; `counted` is false for the one check a store makes when it
    /// starts watching, which ``changeCheckCount`` leaves out.
    func checkForExternalChange(counted: Bool) {
        if counted { versions.withLock { $0.checkCount += 1 } }
        // The common case, nothing changed, costs one `lstat` and one `stat` and never waits
        // for a write in progress. Nor does the file this store is renaming into place: the
        // write publishes its values itself (waiting for it made every write of a watched
        // store hand the file lock to this check and back).
        if let target = try? FileSystem.resolvingSymbolicLinks(path),
            let known = try? isKnownVersion(FileSystem.fingerprint(atPath: target)), known
        {
            return
        }
        var problem: StorageError?
        file.withLock { state in
            do {
                let target = try FileSystem.resolvingSymbolicLinks(path)
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
                let error =
                    (error as? StorageError)?.adding(location: path)
                    ?? StorageError(.io, wrapping: error, location: path)
                guard error != state.reportedPathProblem else { return }
                state.reportedPathProblem = error
                problem = error
            }
        }
        if let problem { StorageErrorReporter.report(problem) }
    }

    /// Whether `current` (`nil`: no file) is the version the values in memory come from, or
    /// the one this store's write in progress is renaming into place.
    private func isKnownVersion(_ current: FileFingerprint?) -> Bool {
        let known = versions.value
        return current == known.loaded || (current != nil && current == known.writing)
    }

    /// How many times the store checked its file for external changes since it was opened:
    /// once per batch of events in its folder, or once per interval where it polls.
    package var changeCheckCount: Int { versions.value.checkCount }
}

/// What tells one ``FileStore`` that its file may have changed.
///
/// Where the platform has a file event source, it is that: ``FolderEvents`` (`inotify` on every
/// folder on the way to the file and to its link's target on Linux, resolved again whenever one
/// of them changes; `kqueue` on the folder and the file on Apple platforms, where a path through
/// a link someone may retarget is polled instead), which wakes only
/// when something changes. Where it has none, or none can be had (no descriptor
/// free, the system's watch limit reached), it is a repeating `stat` check every
/// ``FileStore/Options/changeCheckInterval``, an entry in ``ChangeCheckScheduler/shared`` (one
/// thread for every store, needing no file descriptor). The handler holds the store weakly;
/// the store cancels its watcher when it is released, so nothing outlives it.
final class FileWatcher: Sendable {
    private enum Source: Sendable {
        #if os(Linux) || os(Android) || canImport(Darwin)
        case events([FolderEvents.Registration])
        #endif
        case polling(ChangeCheckScheduler.Entry)
    }

    private let source: Source

    /// Starts watching the file at `path` (a symbolic link is watched where it is, and where it
    /// points, as each check follows it: on Linux wherever it points now; on Apple platforms a
    /// path through a link someone may retarget is polled).
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
