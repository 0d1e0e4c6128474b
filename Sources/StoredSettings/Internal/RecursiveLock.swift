import Foundation

/// A lock that serialises the writers of one store, and that the thread holding it may take
/// again.
///
/// `UserDefaultsStore` takes it around the whole of `update` and around every write, so no
/// write lands between an update's read and its write. It guards no
/// state of its own (values live behind a ``Lock``), so taking it again on the same thread
/// neither deadlocks nor creates a second `inout` access to anything.
///
/// Built on `NSRecursiveLock` (a recursive `pthread_mutex_t` on Linux).
package final class RecursiveLock: Sendable {
    private let mutex = NSRecursiveLock()

    /// Creates an unlocked lock.
    package init() {}

    /// Runs `body` while holding the lock.
    @inline(__always)
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        mutex.lock()
        defer { mutex.unlock() }
        return try body()
    }
}
