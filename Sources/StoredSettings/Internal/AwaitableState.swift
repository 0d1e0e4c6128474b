/// A value behind a lock that tasks can wait on: ``wait(until:)`` returns as soon as a change makes
/// its condition hold, without polling. Waiters resume after ``withLock(_:)`` releases the lock; a
/// cancelled waiter gets the state as it is, so callers check it again. Thread-safe.
package final class AwaitableState<State: Sendable>: Sendable {
    private typealias Continuation = CheckedContinuation<State, Never>

    private struct Waiter {
        let condition: @Sendable (State) -> Bool
        let continuation: Continuation
    }

    private struct Storage {
        var state: State
        var nextID = 0
        var waiters: [Int: Waiter] = [:]
        /// Waits whose task was cancelled before they registered their continuation.
        var cancelled: Set<Int> = []
        /// Waits that began and have not registered or finished yet.
        var starting: Set<Int> = []
    }

    private let storage: Lock<Storage>

    /// Creates the state with `initialState`.
    package init(_ initialState: State) {
        storage = Lock(Storage(state: initialState))
    }

    /// A copy of the current state.
    package var value: State {
        storage.withLock { $0.state }
    }

    /// Runs `body` with exclusive access to the state, then resumes every waiter whose
    /// condition now holds.
    @discardableResult
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        let (result, ready): (R, [(Continuation, State)]) = try storage.withLock { storage in
            let result = try body(&storage.state)
            guard !storage.waiters.isEmpty else { return (result, []) }
            var ready: [(Continuation, State)] = []
            for (id, waiter) in storage.waiters where waiter.condition(storage.state) {
                storage.waiters[id] = nil
                ready.append((waiter.continuation, storage.state))
            }
            return (result, ready)
        }
        for (continuation, state) in ready { continuation.resume(returning: state) }
        return result
    }

    /// Waits until `condition` holds for the state, and returns that state; returns at once
    /// when it holds already. Returns the state as it is when the task is cancelled.
    @discardableResult
    package func wait(until condition: @escaping @Sendable (State) -> Bool) async -> State {
        let id = storage.withLock { storage in
            defer { storage.nextID += 1 }
            storage.starting.insert(storage.nextID)
            return storage.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: Continuation) in
                let now: State? = storage.withLock { storage in
                    storage.starting.remove(id)
                    if storage.cancelled.remove(id) != nil || condition(storage.state) { return storage.state }
                    storage.waiters[id] = Waiter(condition: condition, continuation: continuation)
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let (waiter, state): (Waiter?, State) = storage.withLock { storage in
                if let waiter = storage.waiters.removeValue(forKey: id) { return (waiter, storage.state) }
                if storage.starting.contains(id) { storage.cancelled.insert(id) }
                return (nil, storage.state)
            }
            waiter?.continuation.resume(returning: state)
        }
    }
}
