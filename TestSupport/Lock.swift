import Foundation

/// A lock that owns the state it protects, in the shape of `Synchronization.Mutex` (which the
/// package's oldest platforms, macOS 13 and iOS 16, lack): `withLock` hands out `inout` access.
///
/// Built on `NSLock`, from the library's public API alone, as a backend in another package
/// would; not recursive, so no `withLock` body calls out to code that may take it again.
final class Lock<State> {
    private let lock = NSLock()
    private var state: State

    init(_ initialState: State) {
        state = initialState
    }

    /// Runs `body` with exclusive access to the state.
    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

// Safe because `state` is only read or written inside `withLock`, under `lock`, and `State` is
// `Sendable`, so what a body copies out may cross threads; the class is final.
extension Lock: @unchecked Sendable where State: Sendable {}

extension Lock where State: Sendable {
    /// A copy of the current state.
    var value: State { withLock { $0 } }
}
