#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
    /// Asks the system to put what was written through `fd` (a file or a folder) on stable
    /// storage, and returns whether it says it did.
    ///
    /// On Apple platforms `fsync` only hands the data to the drive, which may keep it in its
    /// volatile cache; `fcntl(F_FULLFSYNC)` also asks the drive to flush that cache, which is
    /// what survives a power loss. Some file systems refuse `F_FULLFSYNC` (network volumes,
    /// FAT, some external drives); `fsync` is then the best the system offers and is used
    /// instead. Elsewhere (Linux) `fsync` already flushes the drive's cache on file systems
    /// mounted with write barriers, the default.
    ///
    /// - Returns: `false` when the last call made fails (`errno` is set).
    package static func flushToStableStorage(_ fd: Int32) -> Bool {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return true }
        #endif
        return fsync(fd) == 0
    }
}
