#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
    /// Asks the system to put what was written through `fd` (a file or a folder) on storage;
    /// `false` (with `errno` set) when the last call made fails.
    ///
    /// Apple platforms: `fcntl(F_BARRIERFSYNC)`, which keeps writes in order, or with `fullFlush`
    /// `F_FULLFSYNC`, which flushes the drive's cache; `fsync` where the file system refuses
    /// them. Elsewhere `fsync`. See <doc:PlatformNotes>.
    static func flushToStableStorage(_ fd: Int32, fullFlush: Bool = false) -> Bool {
        #if canImport(Darwin)
        // `F_BARRIERFSYNC`, spelled out as <sys/fcntl.h> defines it.
        let barrier: Int32 = 85
        if fcntl(fd, fullFlush ? F_FULLFSYNC : barrier) == 0 { return true }
        #endif
        return fsync(fd) == 0
    }
}
