import StoredSettings

/// Standard output or standard error as a `TextOutputStream`, for the `stored` executable.
///
/// Each `write` goes straight to the file descriptor with POSIX `write(2)`, retried after
/// `EINTR` and partial writes, so output and errors appear in the order they were written.
/// A write that fails (a closed pipe, once `SIGPIPE` is ignored; a full disk) never traps: the
/// first failure is kept in ``failure``, later writes are skipped, and
/// ``StoredCLI/exitCode(_:output:error:)`` turns it into exit status 74.
///
/// Thread-safety: a value holding only a descriptor number; each `write` call is one or more
/// system calls, which do not interleave within a call's bytes for pipes up to `PIPE_BUF`.
public struct StandardStream: TextOutputStream, Sendable {
    private var stream: FileDescriptorStream

    /// Standard output (descriptor 1).
    public static var output: StandardStream { StandardStream(stream: .output) }
    /// Standard error (descriptor 2).
    public static var error: StandardStream { StandardStream(stream: .error) }

    /// Writes the UTF-8 bytes of `string`; nothing once a write has failed.
    public mutating func write(_ string: String) {
        stream.write(string)
    }

    /// What went wrong with the first write that failed, such as
    /// `standard output: cannot write: Broken pipe`; `nil` while every write succeeded.
    public var failure: String? { stream.failureText }
}
