#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process resource limits the helper lowers, as the `resource` argument `setrlimit` takes.
///
/// Glibc imports `RLIMIT_*` as cases of the `__rlimit_resource` enumeration, whose raw value is
/// what `setrlimit` takes; Darwin and Musl import them as plain `Int32` macros, which have no
/// `rawValue`. This is the one place that difference is spelt out.
enum ResourceLimit {
    /// `RLIMIT_FSIZE`: the largest file the process may write, in bytes.
    static var fileSize: Int32 {
        #if canImport(Glibc)
        Int32(RLIMIT_FSIZE.rawValue)
        #else
        Int32(RLIMIT_FSIZE)
        #endif
    }

    /// `RLIMIT_NOFILE`: one more than the highest descriptor number the process may open.
    static var openFiles: Int32 {
        #if canImport(Glibc)
        Int32(RLIMIT_NOFILE.rawValue)
        #else
        Int32(RLIMIT_NOFILE)
        #endif
    }

    /// Sets both the soft and the hard limit of `resource` to `value` (`setrlimit`); `false`
    /// when the system refuses.
    static func set(_ resource: Int32, to value: rlim_t) -> Bool {
        var limit = rlimit(rlim_cur: value, rlim_max: value)
        return setrlimit(resource, &limit) == 0
    }
}
