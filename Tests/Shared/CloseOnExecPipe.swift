import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pipe whose two ends are close-on-exec from the moment they exist, for code that spawns
/// child processes while other threads spawn theirs (the package's tests do, in parallel).
///
/// With `pipe` followed by `fcntl(F_SETFD, FD_CLOEXEC)`, a child spawned by another thread in
/// between inherits an end, and the pipe then never reaches its end while that child lives.
/// `pipe2(O_CLOEXEC)` (Linux; looked up at run time, since the Swift Glibc module does not
/// export it) closes that window. Where it does not exist (Darwin), the ends are marked right
/// after `pipe`, under one process-wide lock that callers may also hold around their spawn.
package enum CloseOnExecPipe {
    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>?, Int32) -> Int32

    private static let pipe2: Pipe2? = {
        #if canImport(Darwin)
        return nil
        #else
        guard let handle = dlopen(nil, RTLD_NOW) else { return nil }
        guard let symbol = dlsym(handle, "pipe2") else { return nil }
        return unsafeBitCast(symbol, to: Pipe2.self)
        #endif
    }()

    /// Held while the fallback marks a new pipe's ends.
    private static let lock = Lock(0)

    /// A new pipe: `(read end, write end)`, both close-on-exec.
    ///
    /// - Throws: `POSIXError` with the `errno` of `pipe2` or `pipe` (`EMFILE` when the process
    ///   is out of descriptors).
    package static func make() throws -> (read: Int32, write: Int32) {
        FileDescriptor.reserveStandardStreams()
        var fds: [Int32] = [-1, -1]
        if let pipe2 {
            guard pipe2(&fds, O_CLOEXEC) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
            return try aboveStandardStreams(fds)
        }
        return try lock.withLock { _ in
            guard pipe(&fds) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EMFILE) }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
            return try aboveStandardStreams(fds)
        }
    }

    /// Both ends of a new pipe moved to 3 or above (``FileDescriptor/movedAboveStandardStreams(_:)``).
    private static func aboveStandardStreams(_ fds: [Int32]) throws -> (read: Int32, write: Int32) {
        let read = FileDescriptor.movedAboveStandardStreams(fds[0])
        let code = errno
        let write = FileDescriptor.movedAboveStandardStreams(fds[1])
        guard read >= 0, write >= 0 else {
            let failure = read < 0 ? code : errno
            if read >= 0 { close(read) }
            if write >= 0 { close(write) }
            throw POSIXError(POSIXErrorCode(rawValue: failure) ?? .EMFILE)
        }
        return (read, write)
    }
}
