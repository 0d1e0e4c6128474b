#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutual-exclusion lock that owns the state it protects.
///
/// It has the shape of `Synchronization.Mutex` (`withLock` hands out `inout` access to the
/// state), but runs on every platform the package supports (macOS 13, iOS 16), where `Mutex` is
/// not available. It is built directly on the system lock, `os_unfair_lock` on Apple platforms
/// and `pthread_mutex_t` elsewhere, rather than on `NSLock`: every setting read takes a lock,
/// and calling the system lock directly saves the Objective-C-style method dispatch of `NSLock`.
///
/// Never call out to user code (observers, `update` bodies, error report handlers) while
/// holding it: the lock is not recursive, and taking it again on the same thread deadlocks on
/// Linux and aborts the process on Apple platforms (`os_unfair_lock` traps on re-entry). Every
/// `withLock` body in the package is therefore closed code: it copies what it needs out of the
/// state, and callbacks run after it returns. The exceptions are the writers' locks an `update`
/// holds across its body (``DictionaryStorage``'s, ``FileStore``'s file lock, a suite's in
/// `UserDefaultsStore`): the body's own writes to that store are refused by ``UpdateScope``
/// before they would take it again, and a suite's lock, held across `UserDefaults.set` (which
/// notifies observers on Apple platforms), is not taken again by the thread marked as holding it.
///
/// Give it a state that is not empty: with `Lock(())`, ThreadSanitizer reports every access to
/// the zero-sized state as a race, since it has the object's own address, where other threads
/// read the object's header before they take the lock.
///
/// The lock is `Sendable` only when its state is, as `Mutex` is for its value: handing a lock to
/// another thread hands out its state, so state that may not cross threads (a non-`Sendable`
/// class, for instance) keeps the lock on its own thread too, and the compiler checks it.
package final class Lock<State> {
    #if canImport(Darwin)
    private let mutex: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #endif
    // The lock already makes every access exclusive; the runtime's dynamic exclusivity check
    // on this class property would only add cost to every read.
    @exclusivity(unchecked)
    private var state: State

    /// Creates a lock protecting `initialState`.
    package init(_ initialState: State) {
        self.state = initialState
        #if canImport(Darwin)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: os_unfair_lock())
        #else
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(mutex)
        #endif
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state.
    @inline(__always)
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        #if canImport(Darwin)
        os_unfair_lock_lock(mutex)
        defer { os_unfair_lock_unlock(mutex) }
        #else
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        #endif
        return try body(&state)
    }

    /// Runs `body` with exclusive access to the state when no other thread holds the lock
    /// (`os_unfair_lock_trylock`, `pthread_mutex_trylock`); returns `nil` at once, without
    /// running it, when one does.
    @inline(__always)
    package func withLockIfAvailable<R>(_ body: (inout State) throws -> R) rethrows -> R? {
        #if canImport(Darwin)
        guard os_unfair_lock_trylock(mutex) else { return nil }
        defer { os_unfair_lock_unlock(mutex) }
        #else
        guard pthread_mutex_trylock(mutex) == 0 else { return nil }
        defer { pthread_mutex_unlock(mutex) }
        #endif
        return try body(&state)
    }

    /// ``withLock(_:)``, calling `taken` first when another thread holds the lock
    /// (`os_unfair_lock_trylock`, `pthread_mutex_trylock` failed), before waiting for it.
    @inline(__always)
    package func withLock<R>(ifTaken taken: () -> Void, _ body: (inout State) throws -> R) rethrows -> R {
        #if canImport(Darwin)
        if !os_unfair_lock_trylock(mutex) {
            taken()
            os_unfair_lock_lock(mutex)
        }
        defer { os_unfair_lock_unlock(mutex) }
        #else
        if pthread_mutex_trylock(mutex) != 0 {
            taken()
            pthread_mutex_lock(mutex)
        }
        defer { pthread_mutex_unlock(mutex) }
        #endif
        return try body(&state)
    }
}

// Safe because `state` is only ever read or written inside `withLock`, which holds the system
// lock for the whole access, and `State` is `Sendable`, so what a body copies out may cross
// threads; the class is final and exposes no other path to `state`. The system lock is
// allocated once, never moved, and freed only in `deinit`.
extension Lock: @unchecked Sendable where State: Sendable {}

extension Lock where State: Sendable {
    /// A copy of the current state.
    package var value: State {
        withLock { $0 }
    }
}

extension Lock {
    /// The value kept for `key`, derived by `derive` (outside the lock) and kept when none is;
    /// when two threads derive one at once, the first kept is the one both return.
    package func value<Key: Hashable, Value>(forKey key: Key, derive: () -> Value) -> Value
    where State == [Key: Value] {
        if let known = withLock({ $0[key] }) { return known }
        let derived = derive()
        return withLock { known in
            if let first = known[key] { return first }
            known[key] = derived
            return derived
        }
    }
}
