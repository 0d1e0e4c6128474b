import Foundation

/// Runs `body`, which blocks (it waits for child processes), on a thread of its own and
/// returns what it returns: the test's cooperative pool (two threads on a two-core machine)
/// stays free for the other tests, which would otherwise wait behind this one.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(with: Result { try body() })
        }.start()
    }
}
