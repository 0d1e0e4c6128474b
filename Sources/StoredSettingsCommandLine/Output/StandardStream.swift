import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output or standard error as a `TextOutputStream` that never traps: the one writer
/// the package's tools, ``SettingsCommand`` and the default `StorageErrorReporter` handler
/// use.
///
/// ```swift
/// signal(SIGPIPE, SIG_IGN)   // a closed pipe is then an error, not the end of the process
/// var output = StandardStream.output
/// print("hello", to: &output)
/// if let failure = output.failure {
///     var error = StandardStream.error
///     print("tool: \(failure).", to: &error)
/// }
/// ```
///
/// Each `write` goes straight to the file descriptor with POSIX `write(2)`, retried after
/// `EINTR` and after partial writes, so output and errors appear in the order they were
/// written, with no buffer to flush or to lose at `exit`. A write that fails (`EPIPE` from a
/// closed pipe once the process ignores `SIGPIPE`, `ENOSPC` from a full disk, `EBADF` from a
/// closed descriptor) loses its text but never traps, as `FileHandle.write(_:)` does on
/// Linux: the first failure is kept in ``failure`` and later writes are skipped, so a tool can
/// exit with an I/O error instead of reporting success.
///
/// Ignoring `SIGPIPE` is the process's decision, not the library's: a tool that does not
/// ignore it is ended by the signal on its first write into a closed pipe, as Unix tools are.
///
/// Thread-safety: a value holding a descriptor number and the first failure; give each thread
/// its own value (``output`` and ``error`` make a fresh one each time). One `write` call is
/// one or more system calls; the kernel keeps each call's bytes together on a pipe up to
/// `PIPE_BUF` bytes.
public struct StandardStream: TextOutputStream, Sendable {
    private let descriptor: Int32
    /// The `errno` of the first write that failed; `nil` while every write succeeded.
    private var failureCode: Int32?

    /// Standard output (descriptor 1).
    public static var output: StandardStream { StandardStream(descriptor: 1) }
    /// Standard error (descriptor 2).
    public static var error: StandardStream { StandardStream(descriptor: 2) }

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Writes the UTF-8 bytes of `string`, all of them; nothing once a write has failed.
    ///
    /// - Parameter string: The text, usually ending in a line break.
    public mutating func write(_ string: String) {
        guard !string.isEmpty, failureCode == nil else { return }
        let bytes = Array(string.utf8)
        let descriptor = descriptor
        // A closed pipe or full disk loses the text; it never traps, and it is remembered.
        if !bytes.withUnsafeBytes({ DescriptorWrite.writeAll(descriptor, $0) }) {
            failureCode = errno
        }
    }

    /// What went wrong with the first write that failed, such as
    /// `standard output: cannot write: Broken pipe` (the text of `strerror`); `nil` while
    /// every write succeeded.
    public var failure: String? {
        guard let failureCode else { return nil }
        let name =
            switch descriptor {
            case 1: "standard output"
            case 2: "standard error"
            default: "descriptor \(descriptor)"
            }
        return "\(name): cannot write: \(errnoText(failureCode))"
    }
}
