#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the package's file descriptors are placed.
package enum FileDescriptor {
    /// `fd`, or when it is 0, 1 or 2 a close-on-exec copy of it at 3 or above (the original
    /// closed; -1 with `errno` set when none can be made): a standard stream closed after
    /// ``reserveStandardStreams()`` must not become a file that the next `print` lands in.
    package static func movedAboveStandardStreams(_ fd: Int32) -> Int32 {
        guard fd >= 0, fd <= 2 else { return fd }
        let moved = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        let code = errno
        close(fd)
        if moved < 0 { errno = code }
        return moved
    }

    /// Once per process, before the package's first `open`: gives each closed 0, 1 and 2 a
    /// close-on-exec `/dev/null` opened so that using it fails with `EBADF` as a closed one
    /// does, so no file the package opens takes a standard stream's number even for an instant
    /// (as glibc's `__libc_check_standard_fds` guards set-user-ID programs).
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
