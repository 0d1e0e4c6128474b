import Foundation

/// Runs `body`, which blocks (on child processes, or on a request to a frozen etcd member), on
/// a thread of its own and returns what it returns: the tests' cooperative pool (two threads on
/// a two-core machine) stays free for the other tests.
///
/// When the calling task is cancelled (the hang guard's time limit cancels it), this throws
/// `CancellationError` at once and leaves `body` to finish on its thread, its result dropped:
/// the test's clean-up then runs (an etcd cluster shut down, its process slots given back), so
/// one hung call fails one test instead of wedging every test waiting for those slots.
package func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    let waiter = Lock<CheckedContinuation<T, any Error>?>(nil)
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            waiter.withLock { $0 = continuation }
            if Task.isCancelled { waiter.withLock { $0.take() }?.resume(throwing: CancellationError()) }
            Thread.detachNewThread {
                let result = Result { try body() }
                waiter.withLock { $0.take() }?.resume(with: result)
            }
        }
    } onCancel: {
        waiter.withLock { $0.take() }?.resume(throwing: CancellationError())
    }
}
