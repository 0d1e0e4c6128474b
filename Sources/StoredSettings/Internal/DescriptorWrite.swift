#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `write(2)` on a file descriptor, for every writer in the package.
package enum DescriptorWrite {
    /// `write(2)`, under a name that members called `write` cannot shadow.
    @inline(__always)
    package static func writeBytes(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        write(fd, bytes, count)
    }

    /// Writes every byte of `buffer` to `fd`, retrying partial writes and `EINTR`; `false`
    /// (with `errno` set) when `write(2)` failed.
    package static func writeAll(_ fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        var offset = 0
        while offset < buffer.count {
            let written = writeBytes(fd, base + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
