import Dispatch
import Foundation

/// Runs every ``FileStore``'s periodic check for external changes from one thread, and places
/// each store's watch (``runOnce(_:)``) after the open returned.
///
/// The thread sleeps on a semaphore until the earliest check is due (or a new check is added),
/// then runs the due checks one after another. It uses no file descriptor, and no Dispatch
/// queue or source: on Linux the first Dispatch timer source, and the first block sent to a
/// global queue, set up Dispatch's event machinery (an `epoll` descriptor and an `eventfd`)
/// and trap when the process has no descriptor free. So a process out of descriptors still
/// opens stores, and its checks still run. Deadlines use the monotonic clock (`DispatchTime`),
/// so setting the wall clock does not move them.
///
/// A check that finds nothing changed costs one `lstat` and one `stat`; one that finds a
/// change reads the file, and delays the checks after it by that much.
///
/// Thread-safety: every member may be called from any thread; the state is behind a lock, and
/// handlers run on the scheduler's thread with no lock held.
package final class ChangeCheckScheduler: Sendable {
    /// The scheduler of the process; its thread starts with the first check.
    package static let shared = ChangeCheckScheduler()

    /// A handle to one repeating check, for ``remove(_:)``.
    package struct Entry: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct Check {
        /// 0 for a check that runs once (``runOnce(_:)``).
        var interval: UInt64
        var due: UInt64
        let handler: @Sendable () -> Void
    }

    private struct State {
        var checks: [UInt64: Check] = [:]
        var nextID: UInt64 = 0
        var threadStarted = false
    }

    private let state = Lock(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    /// Runs `handler` every `interval` nanoseconds, the first time one interval from now,
    /// until ``remove(_:)``.
    package func add(everyNanoseconds interval: UInt64, _ handler: @escaping @Sendable () -> Void) -> Entry {
        let now = DispatchTime.now().uptimeNanoseconds
        let (id, startThread) = state.withLock { state -> (UInt64, Bool) in
            state.nextID += 1
            state.checks[state.nextID] = Check(interval: interval, due: now &+ interval, handler: handler)
            defer { state.threadStarted = true }
            return (state.nextID, !state.threadStarted)
        }
        if startThread {
            let thread = Thread { [self] in run() }
            thread.name = "StoredSettings change checks"
            thread.start()
        } else {
            wakeUp.signal()
        }
        return Entry(id: id)
    }

    /// Runs `handler` once on the scheduler's thread, as soon as it gets to it, after every
    /// run added before it.
    package func runOnce(_ handler: @escaping @Sendable () -> Void) {
        _ = add(everyNanoseconds: 0, handler)
    }

    /// Stops the check; a run in progress finishes.
    package func remove(_ entry: Entry) {
        state.withLock { _ = $0.checks.removeValue(forKey: entry.id) }
    }

    private func run() {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let due = state.withLock { state -> [(id: UInt64, handler: @Sendable () -> Void)] in
                var due: [(id: UInt64, handler: @Sendable () -> Void)] = []
                for (id, var check) in state.checks where check.due <= now {
                    due.append((id, check.handler))
                    guard check.interval > 0 else {
                        state.checks[id] = nil
                        continue
                    }
                    check.due = now &+ check.interval
                    state.checks[id] = check
                }
                return due
            }
            // In the order they were added, so a run added after another starts after it ends.
            for (_, handler) in due.sorted(by: { $0.id < $1.id }) { handler() }
            // Checks added or removed while the handlers ran count from here.
            let next = state.withLock { $0.checks.values.map(\.due).min() }
            if let next {
                _ = wakeUp.wait(timeout: DispatchTime(uptimeNanoseconds: next))
            } else {
                wakeUp.wait()
            }
        }
    }
}
