#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// This process's ID, read once, and read again in the child after a `fork`.
///
/// `getpid()` is a system call on every call (glibc stopped caching it in version 2.25), and
/// every durable write names its temporary file with it (``AtomicFile``). A `pthread_atfork`
/// handler updates the cached ID in the child of a `fork`, before `fork` returns there, so a
/// forked child never names its files with its parent's ID. (`posix_spawn` and `vfork`, which
/// run no such handlers, are followed by `exec`, which starts the process over.)
enum ProcessID {
    /// The ID of the calling process.
    static var current: pid_t {
        _ = childHandler
        return cache.pid
    }

    /// Holds the ID.
    ///
    /// `@unchecked Sendable` is safe: `pid` is written in `init`, before ``cache`` publishes
    /// the object (the runtime runs a `static let`'s initializer once, and every reader waits
    /// for it), and afterwards only by the `pthread_atfork` child handler, which runs in a new
    /// child process while that process has a single thread and before `fork` returns in it:
    /// no other thread of that process exists to read `pid` meanwhile, and the threads of the
    /// parent read their own copy.
    private final class Cache: @unchecked Sendable {
        var pid: pid_t

        init() {
            pid = getpid()
        }
    }

    private static let cache = Cache()

    /// Registers the handler, once, after ``cache`` exists: the handler only touches a
    /// `static let` whose initialization has finished, so a `fork` made by another thread
    /// while this registration runs cannot leave the child waiting for an initialization that
    /// no thread of the child will finish.
    private static let childHandler: Void = {
        _ = cache
        pthread_atfork(nil, nil) { ProcessID.cache.pid = getpid() }
    }()
}
