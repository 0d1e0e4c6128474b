import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock between processes: `flock(LOCK_EX)` on a sidecar file
/// (`settings.json.lock`), never on the data file itself, whose inode changes with every atomic
/// replace.
///
/// The kernel releases the lock when the holder's descriptor closes, including when the process
/// is killed with `SIGKILL`, so a crashed writer never blocks the others. The descriptor is
/// opened once (`O_CLOEXEC`, so child processes do not inherit it) and kept until the lock is
/// released; a lock file that was deleted or replaced while unlocked is noticed (its inode no
/// longer matches the path) and reopened.
///
/// Not thread-safe: ``FileStore`` uses it only under its own in-process lock. Two instances in
/// one process exclude each other like two processes do, because `flock` locks belong to open
/// file descriptions.
package final class FileLock {
    /// The lock file's path.
    package let path: String
    private var descriptor: Int32 = -1

    /// A lock on the file at `path` (the data file's path plus `.lock`), created (mode 0600)
    /// on first use. Errors name the data file, whose write needed the lock.
    package init(path: String) {
        self.path = path
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Blocks until this process holds the lock.
    ///
    /// - Throws: ``StorageError/Code/io`` when the lock file cannot be created or locked (for
    ///   example in a read-only folder), naming the path and the `errno` text.
    package func lock() throws {
        for _ in 0..<8 {
            if descriptor < 0 { descriptor = try open(path) }
            while flock(descriptor, LOCK_EX) != 0 {
                if errno == EINTR { continue }
                throw FileSystem.ioError("cannot lock \(name)", path: dataPath)
            }
            // The lock counts only if the file we locked is still the one at `path`.
            var held = stat()
            var current = stat()
            if fstat(descriptor, &held) == 0, stat(path, &current) == 0,
               held.st_ino == current.st_ino, held.st_dev == current.st_dev {
                return
            }
            close(descriptor)
            descriptor = -1
        }
        throw StorageError(.io, path: dataPath, message: "cannot lock \(name): it keeps being replaced")
    }

    /// Releases the lock; the descriptor stays open for the next ``lock()``.
    package func unlock() {
        if descriptor >= 0 { _ = flock(descriptor, LOCK_UN) }
    }

    /// Runs `body` while holding the lock.
    package func withLock<R>(_ body: () throws -> R) throws -> R {
        try lock()
        defer { unlock() }
        return try body()
    }

    /// The data file's path, which errors name: that is the file the caller tried to write.
    private var dataPath: String { String(path.dropLast(".lock".count)) }
    private var name: String { (path as NSString).lastPathComponent }

    private func open(_ path: String) throws -> Int32 {
        let created = FileSystem.openFile(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if created >= 0 {
            _ = fchmod(created, 0o600)
            return created
        }
        guard errno == EEXIST else { throw FileSystem.ioError("cannot create \(name)", path: dataPath) }
        let existing = FileSystem.openFile(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0)
        guard existing >= 0 else { throw FileSystem.ioError("cannot open \(name)", path: dataPath) }
        return existing
    }
}
