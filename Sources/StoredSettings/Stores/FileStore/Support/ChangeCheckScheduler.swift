import Dispatch
import Foundation

/// Runs every ``FileStore``'s periodic check for external changes from one thread, and places
/// each store's watch (``runOnce(_:)``) after the open returned.
///
/// The thread sleeps on a semaphore until the earliest check is due, on the monotonic clock.
/// It uses no Dispatch queue or source: on Linux their first use opens descriptors and traps
/// when none is free, and a process out of descriptors must still open stores and check them.
///
/// Thread-safety: every member may be called from any thread; the state is behind a lock, and
/// handlers run on the scheduler's thread with no lock held.
package final class ChangeCheckScheduler: Sendable {
    /// The scheduler of the process; its thread starts with the first check.
    package static let shared = ChangeCheckScheduler()

    /// A handle to one repeating check, for ``remove(_:)``.
    struct Entry: Hashable, Sendable {
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
        /// When the thread wakes by itself: `nil` while it runs checks (it looks at the checks
        /// again before it sleeps), `.max` while it waits for a check to be added.
        var wakeTime: UInt64?
    }

    /// Checks due this soon run with those due now, so a burst of opens wakes the thread once.
    private static let window: UInt64 = 1_000_000

    /// How long after ``runOnce(_:)`` its handler runs, in nanoseconds: a store released
    /// sooner (a tool's run) never places a watch.
    private static let runOnceDelay: UInt64 = 2_000_000

    private let state = Lock(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    /// Runs `handler` every `interval` nanoseconds, the first time one interval from now,
    /// until ``remove(_:)``.
    func add(everyNanoseconds interval: UInt64, _ handler: @escaping @Sendable () -> Void) -> Entry {
        add(interval: interval, firstIn: interval, handler)
    }

    /// Runs `handler` once on the scheduler's thread, ``runOnceDelay`` from now, after every
    /// run added before it.
    package func runOnce(_ handler: @escaping @Sendable () -> Void) {
        _ = add(interval: 0, firstIn: Self.runOnceDelay, handler)
    }

    /// Runs `handler` once on the scheduler's thread, `delay` nanoseconds from now.
    func runOnce(afterNanoseconds delay: UInt64, _ handler: @escaping @Sendable () -> Void) {
        _ = add(interval: 0, firstIn: delay, handler)
    }

    private func add(interval: UInt64, firstIn delay: UInt64, _ handler: @escaping @Sendable () -> Void) -> Entry {
        let due = DispatchTime.now().uptimeNanoseconds &+ delay
        let (id, startThread, wake) = state.withLock { state -> (UInt64, Bool, Bool) in
            state.nextID += 1
            state.checks[state.nextID] = Check(interval: interval, due: due, handler: handler)
            let startThread = !state.threadStarted
            state.threadStarted = true
            // Woken once: it looks at every check, this one and any added before it does.
            guard let wakeTime = state.wakeTime, due < wakeTime else { return (state.nextID, startThread, false) }
            state.wakeTime = nil
            return (state.nextID, startThread, true)
        }
        if startThread {
            let thread = Thread { [self] in run() }
            thread.name = "StoredSettings change checks"
            thread.start()
        } else if wake {
            wakeUp.signal()
        }
        return Entry(id: id)
    }

    /// Stops the check; a run in progress finishes.
    func remove(_ entry: Entry) {
        state.withLock { _ = $0.checks.removeValue(forKey: entry.id) }
    }

    private func run() {
        while true {
            let now = DispatchTime.now().uptimeNanoseconds
            let due = state.withLock { state -> [(id: UInt64, handler: @Sendable () -> Void)] in
                var due: [(id: UInt64, handler: @Sendable () -> Void)] = []
                for (id, var check) in state.checks where check.due <= now &+ Self.window {
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
            let next = state.withLock { state -> UInt64 in
                let next = state.checks.values.map(\.due).min() ?? .max
                state.wakeTime = next
                return next
            }
            if next == .max {
                wakeUp.wait()
            } else {
                _ = wakeUp.wait(timeout: DispatchTime(uptimeNanoseconds: next))
            }
            state.withLock { $0.wakeTime = nil }
        }
    }
}
