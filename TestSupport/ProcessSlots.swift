import Foundation
import StoredSettings

/// An asynchronous counting semaphore that keeps the heavy real-process tests (etcd clusters)
/// from starving each other: a test takes slots before it starts its processes and gives them
/// back when they are stopped, so on a small or busy machine the clusters take turns instead
/// of all electing leaders at once on too few cores.
///
/// Waiting suspends the task (it never blocks a thread of the cooperative pool), in the order
/// the waits began; a cancelled wait throws `CancellationError`.
///
/// Thread-safety: every member may be used from any thread or task.
package final class ProcessSlots: Sendable {
    private struct Waiter {
        let id: Int
        let count: Int
        let continuation: CheckedContinuation<Void, any Error>
    }
    private struct State {
        var free: Int
        var nextID = 0
        var waiters: [Waiter] = []
    }
    private let state: Lock<State>
    /// The most slots anyone may take at once.
    package let capacity: Int

    /// The slots the etcd tests share: two etcd members per core, and never fewer than one
    /// three-member cluster needs.
    package static let etcdMembers = ProcessSlots(capacity: max(3, 2 * ProcessInfo.processInfo.activeProcessorCount))

    package init(capacity: Int) {
        self.capacity = capacity
        state = Lock(State(free: capacity))
    }

    /// Waits until `count` slots are free (at most ``capacity``) and takes them.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while it waits.
    package func acquire(_ count: Int) async throws {
        let count = min(count, capacity)
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Under the lock: a cancellation handler that ran before this either finds the
                // waiter here or this finds the task cancelled, never neither.
                let outcome: Result<Void, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if state.waiters.isEmpty, state.free >= count {
                        state.free -= count
                        return .success(())
                    }
                    state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(throwing: CancellationError())
            release(0) // the waiters behind it may fit now
        }
    }

    /// Gives back `count` slots taken with ``acquire(_:)`` and wakes the waiters, oldest
    /// first, that fit in what is free.
    package func release(_ count: Int) {
        let woken = state.withLock { state -> [Waiter] in
            state.free += min(count, capacity)
            var woken: [Waiter] = []
            while let first = state.waiters.first, first.count <= state.free {
                state.free -= first.count
                woken.append(state.waiters.removeFirst())
            }
            return woken
        }
        for waiter in woken { waiter.continuation.resume() }
    }
}
