#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output or standard error as a `TextOutputStream`, for the `stored` executable.
///
/// Each `write` goes straight to the file descriptor with POSIX `write(2)`, retried after
/// `EINTR` and partial writes, so output and errors appear in the order they were written.
/// A write that fails (a closed pipe) is dropped: the exit code still tells the outcome.
///
/// Thread-safety: a value holding only a descriptor number; each `write` call is one or more
/// system calls, which do not interleave within a call's bytes for pipes up to `PIPE_BUF`.
public struct StandardStream: TextOutputStream, Sendable {
    private let descriptor: Int32

    /// Standard output (descriptor 1).
    public static var output: StandardStream { StandardStream(descriptor: 1) }
    /// Standard error (descriptor 2).
    public static var error: StandardStream { StandardStream(descriptor: 2) }

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Writes the UTF-8 bytes of `string`.
    public mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        let descriptor = descriptor
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += written
            }
        }
    }
}

#if canImport(Darwin)
private let systemWrite = Darwin.write
#elseif canImport(Musl)
private let systemWrite = Musl.write
#else
private let systemWrite = Glibc.write
#endif
