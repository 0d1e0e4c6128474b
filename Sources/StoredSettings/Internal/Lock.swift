import Foundation

/// A mutual-exclusion lock that owns the state it protects.
///
/// It has the shape of `Synchronization.Mutex` (`withLock` hands out `inout` access to the
/// state), but runs on every platform the package supports (macOS 13, iOS 16), where `Mutex` is
/// not available. It is built on `NSLock`, a `pthread_mutex_t` on Linux.
///
/// Never call out to user code (observers, `update` bodies of other stores) while holding it,
/// unless the contract of the caller says so: the lock is not recursive.
package final class Lock<State>: @unchecked Sendable {
    // Safe because `state` is only ever read or written inside `withLock`, which holds `mutex`
    // for the whole access; the class is final and exposes no other path to `state`.
    private let mutex = NSLock()
    private var state: State

    /// Creates a lock protecting `initialState`.
    package init(_ initialState: State) {
        self.state = initialState
    }

    /// Runs `body` with exclusive access to the state.
    @inline(__always)
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&state)
    }
}

extension Lock where State: Sendable {
    /// A copy of the current state.
    package var value: State {
        withLock { $0 }
    }
}
