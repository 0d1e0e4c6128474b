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
    ///
    /// Callers open after ``reserveStandardStreams()``, so no descriptor the package opens is
    /// 0, 1 or 2 even for an instant; this is the fallback for a standard descriptor closed
    /// later.
    package static func movedAboveStandardStreams(_ fd: Int32) -> Int32 {
        guard fd >= 0, fd <= 2 else { return fd }
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        let code = errno
        close(fd)
        if moved < 0 { errno = code }
        return moved
    }

    /// Once per process, before the package's first `open`: each of 0, 1 and 2 that is
    /// closed is given `/dev/null`, opened so that using it fails as using a closed
    /// descriptor does (`EBADF`): write-only for standard input, read-only for standard
    /// output and error; close-on-exec, so a child starts with them closed as this process did.
    ///
    /// Without it, a file the package opens while one of them is closed takes its number
    /// until ``movedAboveStandardStreams(_:)`` moves it, and another thread's `print` in that
    /// instant lands in the file. glibc guards set-user-ID programs the same way
    /// (`__libc_check_standard_fds` in csu/check_fds.c).
    package static func reserveStandardStreams() {
        _ = reservation
    }

    private static let reservation: Void = {
        for (fd, mode) in [(Int32(0), O_WRONLY), (1, O_RDONLY), (2, O_RDONLY)] {
            guard fcntl(fd, F_GETFD) < 0, errno == EBADF else { continue }
            let placeholder = open("/dev/null", mode | O_CLOEXEC)
            // Another thread filled `fd` meanwhile: keep what it opened, drop ours.
            if placeholder > 2 { close(placeholder) }
        }
    }()
}
