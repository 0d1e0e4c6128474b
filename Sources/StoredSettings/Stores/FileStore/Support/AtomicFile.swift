import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file's contents atomically and durably (<doc:ConfigurationFiles>): a temporary file
/// `.<name>.tmp-<pid>-<random>` beside it, `flock`ed until renamed, is written, `fsync`ed and
/// renamed over the file, then the folder is `fsync`ed. The kernel drops a dead writer's `flock`,
/// which is how ``removeStaleTemporaryFiles(for:)`` tells its leftovers from a live writer's file.
package enum AtomicFile {
    /// The owner and group a rewritten file keeps.
    struct Owner: Equatable, Sendable {
        var user: UInt32
        var group: UInt32
    }

    /// Writes `data` to `destination`'s path, whose folder must exist, so that a crash leaves the
    /// old or the new contents; pass a symbolic link's target, as `rename` replaces the link. The
    /// new file keeps `owner` (`nil`: this user); `hook` runs before each durable step (tests and
    /// benchmarks); what `beforeReplace` throws cancels the write. On any error the old file is
    /// untouched and the temporary file removed.
    @discardableResult
    static func write(
        _ data: Data, to destination: Destination, permissions: UInt32 = 0o600, owner: Owner? = nil,
        fullFlush: Bool = false, hook: DurabilityHook? = nil, beforeReplace: (FileFingerprint) throws -> Void = { _ in }
    ) throws -> FileFingerprint {
        let path = destination.path
        // `created`: the new file's attributes, from the check that its path still names it.
        let (fd, temporaryPath, created) = try createLockedTemporaryFile(for: destination)
        var info = created
        var removeTemporary = true
        var descriptorOpen = true
        defer {
            if removeTemporary { unlink(temporaryPath) }
            if descriptorOpen { close(fd) }
        }
        if let owner, owner.user != UInt32(info.st_uid) || owner.group != UInt32(info.st_gid) {
            guard fchown(fd, uid_t(owner.user), gid_t(owner.group)) == 0 else {
                throw FileSystem.ioError(
                    "cannot give the new file the owner and group of the file it replaces (user \(owner.user), group \(owner.group))",
                    path: path)
            }
        }
        // Created with mode 0600 less the umask: a new file (0600) usually has its mode already.
        let mode = mode_t(permissions & 0o7777)
        guard info.st_mode & 0o7777 == mode || fchmod(fd, mode) == 0 else {
            throw FileSystem.ioError("cannot set the file's permissions", path: path)
        }
        guard data.withUnsafeBytes({ DescriptorWrite.writeAll(fd, $0) }) else {
            throw FileSystem.ioError("cannot write", path: path)
        }
        guard
            try !(hook?.run(.fileSync) ?? true) || flushToStableStorage(fd, fullFlush: fullFlush)
        else {
            throw FileSystem.ioError("cannot write (fsync)", path: path)
        }
        guard fstat(fd, &info) == 0 else { throw FileSystem.ioError("cannot read the file's attributes", path: path) }
        // Bytes beyond ours came from elsewhere (a write to the descriptor number before it was
        // moved above the standard streams): such a file never replaces the settings.
        guard Int(info.st_size) == data.count else {
            throw StorageError(
                .io, location: path,
                message: "the temporary file holds \(info.st_size) bytes where \(data.count) were written")
        }
        let fingerprint = FileFingerprint(info)
        try beforeReplace(fingerprint)
        _ = try hook?.run(.rename)
        guard rename(temporaryPath, path) == 0 else {
            throw FileSystem.ioError("cannot replace the file", path: path)
        }
        removeTemporary = false
        // Closing drops the temporary file's `flock`, and frees the descriptor for the folder.
        close(fd)
        descriptorOpen = false
        let directoryFD = FileSystem.openFile(destination.directoryToOpen, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        if directoryFD >= 0, (try? hook?.run(.folderSync) ?? true) ?? false {
            _ = flushToStableStorage(directoryFD, fullFlush: fullFlush)
        }
        if directoryFD >= 0 { close(directoryFD) }
        return fingerprint
    }

    /// Creates a temporary file beside the destination and `flock`s it. Unlocked between `open` and
    /// `flock`, a cleaner may remove it as stale, so its path is checked after locking and a new
    /// name tried if it no longer names the file.
    private static func createLockedTemporaryFile(for destination: Destination) throws -> (Int32, String, stat) {
        let path = destination.path
        let directory = destination.directory
        for _ in 0..<16 {
            let temporaryPath =
                destination.temporaryPathPrefix
                + "\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"

            let fd = FileSystem.openFile(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                throw FileSystem.ioError("cannot create a temporary file in \(directory)", path: path)
            }
            while flock(fd, LOCK_EX) != 0 {
                if errno == EINTR { continue }
                let code = errno
                unlink(temporaryPath)
                close(fd)
                throw FileSystem.ioError("cannot lock a temporary file in \(directory)", path: path, errno: code)
            }
            var info = stat()
            if names(temporaryPath, fd, info: &info) { return (fd, temporaryPath, info) }
            close(fd)
        }
        throw StorageError(
            .io, location: path, message: "cannot create a temporary file in \(directory): it keeps being removed")
    }

    /// Whether `path` names the file open as `fd`; `info` gets the open file's attributes.
    private static func names(_ path: String, _ fd: Int32, info open: inout stat) -> Bool {
        var named = stat()
        return fstat(fd, &open) == 0 && lstat(path, &named) == 0
            && open.st_ino == named.st_ino && open.st_dev == named.st_dev
    }

    /// Deletes `path`'s temporary files no one holds an `flock` on (their writer died; a stopped
    /// one's are kept), returning how many. Never waits (`LOCK_NB`); needs no ``FileLock``.
    @discardableResult
    static func removeStaleTemporaryFiles(for path: String) -> Int {
        removeStaleTemporaryFiles(for: Destination(path: path))
    }

    /// ``removeStaleTemporaryFiles(for:)-(String)`` of `destination`'s path.
    @discardableResult
    static func removeStaleTemporaryFiles(for destination: Destination) -> Int {
        var removed = 0
        for name in FileSystem.entries(
            inDirectory: destination.directoryToOpen, withPrefix: destination.temporaryPrefix)
        {
            let temporaryPath = destination.pathInDirectory(name)
            let fd = FileSystem.openFile(temporaryPath, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            // Locked: a live writer owns it. Unlocked and still at its name: stale.
            guard flock(fd, LOCK_EX | LOCK_NB) == 0, names(temporaryPath, fd, info: &info) else { continue }
            if unlink(temporaryPath) == 0 { removed += 1 }
        }
        return removed
    }

    /// Asks the system to put what was written through `fd` (a file or a folder) on storage;
    /// `false` (with `errno` set) when the last call made fails.
    ///
    /// Apple platforms: `fcntl(F_BARRIERFSYNC)`, which keeps writes in order, or with `fullFlush`
    /// `F_FULLFSYNC`, which flushes the drive's cache; `fsync` where the file system refuses
    /// them. Elsewhere `fsync`. See <doc:PlatformNotes>.
    private static func flushToStableStorage(_ fd: Int32, fullFlush: Bool) -> Bool {
        #if canImport(Darwin)
        // `F_BARRIERFSYNC`, spelled out as <sys/fcntl.h> defines it.
        let barrier: Int32 = 85
        if fcntl(fd, fullFlush ? F_FULLFSYNC : barrier) == 0 { return true }
        #endif
        return fsync(fd) == 0
    }
}
