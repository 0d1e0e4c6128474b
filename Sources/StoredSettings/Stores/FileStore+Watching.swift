import Dispatch
import Foundation

extension FileStore {
    /// Called by the watcher: reloads the file when its fingerprint changed, publishing the
    /// changes once through ``changes()`` and bumping the revision. A file that does not parse
    /// is reported once per version and leaves the values in memory as they are.
    func checkForExternalChange() {
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
                guard current != state.fingerprint else { return }
                if let current, current == state.reportedBadFingerprint { return }
                var reports: [StorageError] = []
                do {
                    _ = try refresh(&state, target: target, underFileLock: false, reports: &reports)
                } catch let error as StorageError {
                    state.reportedBadFingerprint = current
                    problem = error
                }
            } catch let error as StorageError {
                problem = error.adding(path: url.path)
            } catch {
                problem = StorageError(.io, wrapping: error, path: url.path)
            }
        }
        if let problem { StorageErrorReporter.report(problem) }
    }
}

/// A repeating timer that runs a ``FileStore``'s check for external changes.
///
/// Every watcher runs on the shared default-priority global queue, so a thousand stores cost a
/// thousand timers, not a thousand threads, and one slow check does not delay the others. The handler holds the store weakly; the
/// store cancels its watcher when it is released, so nothing outlives it.
final class FileWatcher: @unchecked Sendable {
    // Safe: `timer` is assigned once in `init` and never changed; Dispatch sources may be
    // resumed and cancelled from any thread.
    private let timer: DispatchSourceTimer

    init(interval: Duration, handler: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = interval.components
        let nanoseconds = max(1_000_000, Int(clamping: seconds) &* 1_000_000_000 &+ Int(attoseconds / 1_000_000_000))
        timer = DispatchSource.makeTimerSource(queue: .global(qos: .default))
        timer.schedule(
            deadline: .now() + .nanoseconds(nanoseconds),
            repeating: .nanoseconds(nanoseconds),
            leeway: .nanoseconds(nanoseconds / 5)
        )
        timer.setEventHandler(handler: handler)
        timer.resume()
    }

    /// Stops the timer; a check already running finishes.
    func cancel() {
        timer.cancel()
    }

    deinit {
        timer.cancel()
    }
}
