#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A mutual-exclusion lock that owns the state it protects: `Synchronization.Mutex`'s shape
/// (`withLock` hands out `inout` state) on `os_unfair_lock` or `pthread_mutex_t`, since `Mutex`
/// needs macOS 15 and iOS 18. `Sendable` only when its state is. Not recursive: a `withLock` body
/// never calls user code (observers, `update` bodies, report handlers). Give it a non-empty state:
/// ThreadSanitizer reports every access to a zero-sized one as a race.
///
/// ## Lock order of the module
/// A thread takes locks only in this order, top to bottom, and never holds one while it calls
/// user code; observers are called once the thread holds none (``UpdateScope``).
/// 1. The writers' lock of a store, held across an `update` body: `FileStore.file` (also across
///    the `flock` wait and the `fsync`s of every write and reload), a suite's writers in
///    `UserDefaultsStore`, an in-memory store's `DictionaryStorage.writers`. A body's writes to
///    the same store are refused by ``UpdateScope`` before they would take it again; a suite's
///    lock is not taken again by the thread marked as holding it (Foundation posts
///    `didChangeNotification` inside `UserDefaults.set` on Apple platforms).
/// 2. Under `FileStore.file`: the `flock` of ``FileLock`` (another process's lock, waited for
///    here only).
/// 3. A store's memory, held for a read or a commit only, never across the disk: `FileStore.memory`
///    (values, changes not yet written, the versions the change check reads, the group commit's
///    queue, the subscribers, whose streams it yields to under it), `DictionaryStorage.state`, a
///    suite's state.
/// 4. ``ChangeBroadcaster``'s subscribers, released before it yields: a stream ends (removing
///    its subscriber) under the locks of a cancelled task, which `yield` may take.
/// The observation table (`StoreObservation`) sits between 2 and 3: a wrapper may be made inside
/// an `update` body, and a relay follows a key under the table's lock. Every other lock (caches,
/// registries, a suite's watch, an ``AwaitableState``'s) is a leaf, but for `FileStore.queuedWrites`, a test counter that reads `FileStore.memory` inside
/// its own. So a durable `FileStore` write takes two locks of the package, `file` and then
/// `memory` (alone for the group commit's queue, the change check and a background setter,
/// which thereby never wait for the disk); the change reaches an observed key's subject with
/// no other.
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
    func withLockIfAvailable<R>(_ body: (inout State) throws -> R) rethrows -> R? {
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
    func withLock<R>(ifTaken taken: () -> Void, _ body: (inout State) throws -> R) rethrows -> R {
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
