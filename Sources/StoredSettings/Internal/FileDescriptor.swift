#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the package's file descriptors are placed.
package enum FileDescriptor {
    /// `fd`, or when it is 0, 1 or 2 a close-on-exec copy of it at 3 or above, the original
    /// closed; -1 (with `errno` set) when no such copy can be made. Every descriptor the
    /// package opens passes through here.
    ///
    /// The kernel gives out the lowest free number, so in a process started with standard
    /// input or output closed (a daemon, cron, `exec <&- >&-`) a lock or temporary file would
    /// become standard output, and the next `print` of any thread would land in it.
    package static func movedAboveStandardStreams(_ fd: Int32) -> Int32 {
        guard fd >= 0, fd <= 2 else { return fd }
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        let code = errno
        close(fd)
        if moved < 0 { errno = code }
        return moved
    }
}
