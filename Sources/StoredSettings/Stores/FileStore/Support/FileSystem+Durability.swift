#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
    /// Asks the system to put what was written through `fd` (a file or a folder) on storage,
    /// and returns whether it says it did.
    ///
    /// On Apple platforms plain `fsync` only hands the data to the drive, which may keep it in
    /// its volatile cache and write it out of order. By default (`fullFlush` false) the call is
    /// `fcntl(F_BARRIERFSYNC)`, which Apple documents for keeping writes in order: everything
    /// before it reaches the medium before anything after it, so the temporary file's bytes
    /// land before the `rename` that publishes them, and a power loss leaves the old or the new
    /// file, never a torn one (it may lose the newest write). With `fullFlush`,
    /// `fcntl(F_FULLFSYNC)` makes the drive flush its whole cache: the write survives a power
    /// loss once this returns, at the cost of a drive-wide flush. File systems that refuse
    /// either (network volumes, FAT, some external drives) get `fsync`, the best they offer.
    /// Elsewhere (Linux) `fsync` already flushes the drive's cache on file systems mounted with
    /// write barriers, the default, and `fullFlush` changes nothing.
    ///
    /// - Returns: `false` when the last call made fails (`errno` is set).
    package static func flushToStableStorage(_ fd: Int32, fullFlush: Bool = false) -> Bool {
        #if canImport(Darwin)
        // The barrier's command number as <sys/fcntl.h> defines it (85), spelled out as the
        // Darwin build of seaweedfs does (weed/storage/backend/disk_file_darwin.go).
        let barrier: Int32 = 85
        if fcntl(fd, fullFlush ? F_FULLFSYNC : barrier) == 0 { return true }
        #endif
        return fsync(fd) == 0
    }
}
