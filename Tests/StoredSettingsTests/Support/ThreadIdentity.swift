#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The POSIX identity of a thread (`pthread_self()`), compared with `pthread_equal`: for tests
/// that tell which thread a hook runs on.
///
/// Meaningful only while that thread runs: POSIX may give the identity of a thread that ended
/// to a new one. Holders keep it only while that thread is inside their own call.
struct ThreadIdentity: Equatable, @unchecked Sendable {
    // Safe because `thread` is only an identifier: it is copied and compared with
    // `pthread_equal`, never dereferenced or used to reach the thread. (It is an integer on
    // Linux and a pointer on Apple platforms, which is why it needs the annotation there.)
    private let thread: pthread_t

    /// The calling thread.
    @inline(__always)
    static var current: ThreadIdentity { ThreadIdentity(thread: pthread_self()) }

    static func == (lhs: ThreadIdentity, rhs: ThreadIdentity) -> Bool {
        pthread_equal(lhs.thread, rhs.thread) != 0
    }
}
