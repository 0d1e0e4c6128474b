import Foundation
import StoredSettings

/// Helpers for tests that run code on threads of their own and meet them on semaphores.
enum ThreadTest {
    /// Runs `body` on a new thread (not a pooled one, so it ends, and its thread-specific
    /// values are destroyed); the returned semaphore is signalled when `body` returns.
    static func onNewThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = 1 << 20
        thread.start()
        return done
    }

    /// Runs `body` on a new thread and returns a wait for its result: a call that blocks (a
    /// write waiting for another process's lock) must not hold one of the concurrency pool's
    /// few threads, which the test's own waiting needs.
    static func resultOnNewThread<R: Sendable>(
        _ body: @escaping @Sendable () throws -> R
    ) -> @Sendable () throws -> R {
        let result = Lock<Result<R, any Error>?>(nil)
        let done = onNewThread { result.withLock { $0 = Result { try body() } } }
        return {
            done.wait()
            return try result.withLock { $0! }.get()
        }
    }

    /// Runs `round` on a new thread with 1, 2, 3… until the returned stop is called, which
    /// returns once the thread has finished its last round.
    static func repeatOnNewThread(_ round: @escaping @Sendable (Int64) -> Void) -> @Sendable () -> Void {
        let stop = Flag()
        let done = onNewThread {
            var count: Int64 = 0
            while !stop.isRaised {
                count += 1
                round(count)
            }
        }
        return {
            stop.raise()
            done.wait()
        }
    }

    /// A flag one thread raises and others poll.
    final class Flag: @unchecked Sendable {
        // Safe because `raised` is only read and written while `lock` is held.
        private let lock = NSLock()
        private var raised = false
        func raise() { lock.withLock { raised = true } }
        var isRaised: Bool { lock.withLock { raised } }
    }

    /// A value several threads read and write.
    final class Box<T>: @unchecked Sendable {
        // Safe because `stored` is only read and written while `lock` is held.
        private let lock = NSLock()
        private var stored: T
        init(_ value: T) { stored = value }
        var value: T {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }

    /// A gate threads block on (a writer inside a durability hook) until the test opens it.
    final class Gate: @unchecked Sendable {
        // Safe because `isOpen` is only read and written between `condition.lock()` and `unlock()`.
        private let condition = NSCondition()
        private var isOpen = false

        func wait() {
            condition.lock()
            while !isOpen { condition.wait() }
            condition.unlock()
        }

        func open() {
            condition.lock()
            isOpen = true
            condition.broadcast()
            condition.unlock()
        }
    }
}
