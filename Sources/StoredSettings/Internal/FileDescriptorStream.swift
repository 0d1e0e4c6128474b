import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output or standard error as a `TextOutputStream`, for ``SettingsCommand`` and the
/// `stored` tool.
///
/// Each `write` goes straight to the file descriptor with POSIX `write(2)`, retried after
/// `EINTR` and partial writes, so output and errors appear in the order they were written. A
/// write that fails (a closed pipe) is dropped rather than trapping, as `FileHandle.write(_:)`
/// does on Linux: the exit code still tells the outcome.
///
/// Thread-safety: a value holding only a descriptor number; each `write` call is one or more
/// system calls, which do not interleave within a call's bytes for pipes up to `PIPE_BUF`.
package struct FileDescriptorStream: TextOutputStream, Sendable {
    private let descriptor: Int32

    /// Standard output (descriptor 1).
    package static var output: FileDescriptorStream { FileDescriptorStream(descriptor: 1) }
    /// Standard error (descriptor 2).
    package static var error: FileDescriptorStream { FileDescriptorStream(descriptor: 2) }

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Writes the UTF-8 bytes of `string`.
    package mutating func write(_ string: String) {
        guard !string.isEmpty else { return }
        let bytes = Array(string.utf8)
        let descriptor = descriptor
        // A closed pipe or full disk loses the text, as with `print`; it never traps.
        _ = bytes.withUnsafeBytes { FileSystem.writeAll(descriptor, $0) }
    }
}
