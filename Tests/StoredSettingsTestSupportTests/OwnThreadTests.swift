import Foundation
import StoredSettingsTestSupport
import Testing

/// `onOwnThread`: a body's result comes back, and a cancelled wait ends at once while the body
/// is still blocked, so the test's clean-up can run.
@Suite(.timeLimit(.hangGuard))
struct OwnThreadTests {
    @Test func theBodysResultAndErrorComeBack() async throws {
        #expect(try await onOwnThread { 42 } == 42)
        struct Refused: Error {}
        await #expect(throws: Refused.self) { try await onOwnThread { throw Refused() } }
    }

    @Test func aCancelledWaitEndsWhileTheBodyIsStillBlocked() async throws {
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let waiter = Task {
            try await onOwnThread {
                started.signal()
                release.wait()
                finished.signal()
                return 1
            }
        }
        await onOwnThreadWait(started)
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        // The body was still blocked when the wait ended; it finishes once released.
        release.signal()
        await onOwnThreadWait(finished)
    }

    @Test func aWaitCancelledBeforeItStartsEndsAtOnce() async throws {
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await onOwnThread { 1 }
        }
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    /// Waits for `semaphore` off the cooperative pool.
    private func onOwnThreadWait(_ semaphore: DispatchSemaphore) async {
        _ = try? await onOwnThread { semaphore.wait() }
    }
}
