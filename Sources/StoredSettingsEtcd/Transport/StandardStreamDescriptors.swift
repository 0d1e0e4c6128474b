#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `fd`, or when it is 0, 1 or 2 a close-on-exec copy of it at 3 or above, the original closed;
/// -1 (with `errno` set) when no copy can be made. Every socket and file this module opens
/// passes through here, as the core's own descriptors do: in a process started with standard
/// output closed, a socket or cache file at 1 would receive every `print`. (This module uses the
/// core's public API only, so it keeps its own copy of these lines.)
func descriptorAboveStandardStreams(_ fd: Int32) -> Int32 {
    guard fd >= 0, fd <= 2 else { return fd }
    let moved = fcntl(fd, F_DUPFD_CLOEXEC, 3)
    let code = errno
    close(fd)
    if moved < 0 { errno = code }
    return moved
}
