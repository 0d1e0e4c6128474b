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
/// write that fails (a closed pipe: `EPIPE` once the tool ignores `SIGPIPE`) never traps, as
/// `FileHandle.write(_:)` does on Linux: the first failure is kept in ``failure`` and later
/// writes are skipped, so the tool can exit with an I/O error instead of reporting success.
///
/// Thread-safety: a value holding only a descriptor number; each `write` call is one or more
/// system calls, which do not interleave within a call's bytes for pipes up to `PIPE_BUF`.
package struct FileDescriptorStream: TextOutputStream, Sendable {
    private let descriptor: Int32
    /// The `errno` of the first write that failed, such as `EPIPE`; `nil` while every write
    /// succeeded.
    package private(set) var failure: Int32?

    /// Standard output (descriptor 1).
    package static var output: FileDescriptorStream { FileDescriptorStream(descriptor: 1) }
    /// Standard error (descriptor 2).
    package static var error: FileDescriptorStream { FileDescriptorStream(descriptor: 2) }

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Writes the UTF-8 bytes of `string`.
    package mutating func write(_ string: String) {
        guard !string.isEmpty, failure == nil else { return }
        let bytes = Array(string.utf8)
        let descriptor = descriptor
        // A closed pipe or full disk loses the text; it never traps, and it is remembered.
        if !bytes.withUnsafeBytes({ FileSystem.writeAll(descriptor, $0) }) {
            failure = errno
        }
    }

    /// `standard output: cannot write: Broken pipe` for a failed stream; `nil` while every
    /// write succeeded.
    package var failureText: String? {
        guard let failure else { return nil }
        let name = switch descriptor {
        case 1: "standard output"
        case 2: "standard error"
        default: "descriptor \(descriptor)"
        }
        return "\(name): cannot write: \(errnoText(failure))"
    }
}
