import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock between processes: `flock(LOCK_EX)` on a sidecar `settings.json.lock`, never
/// on the data file, whose inode changes with every replace; the kernel drops it when the holder
/// dies (<doc:ConfigurationFiles>). A lock file replaced while held would let a newcomer in, so
/// ``lock()`` and ``isStillValid()`` check the path still names the locked file. One thread at a
/// time, under its owner's lock: two in ``lock()`` would share one `flock` (two instances do
/// exclude each other).
package final class FileLock: @unchecked Sendable {
    // Safe: its owners use it only under their own lock (`FileStore.file`, a suite's
    // `withWriters`), so its `var`s are never touched by two threads at once.
    /// The lock file's path.
    let path: String
    /// The lock file's descriptor; -1 while none is open.
    private var descriptor: Int32 = -1
    /// The background time asked for while the lock is held or awaited.
    private var activity: BackgroundActivity?

    /// Whether background time is asked for now: from ``lock()`` until ``unlock()``.
    package var holdsBackgroundActivity: Bool { activity != nil }

    /// How many times ``lock()`` starts over when the lock file keeps being replaced.
    static let attempts = 1000

    /// A lock on the file at `path` (the data file's path plus `.lock`), created (mode 0600)
    /// on first use. Errors name the data file, whose write needed the lock.
    package init(path: String) {
        self.path = path
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        activity?.end()
    }

    /// Blocks until this process holds the lock on the file now at ``path``. Throws `io` when the
    /// lock file cannot be made, opened or locked; `insecurePermissions` when it was replaced
    /// meanwhile and its path now passes a link or folder another user could change.
    package func lock() throws {
        // Asked for before the wait, as Apple asks: the time must cover the whole hold.
        activity = activity ?? BackgroundActivity(reason: "writing \(name)")
        do {
            try lockFile()
        } catch {
            endActivity()
            throw error
        }
    }

    private func lockFile() throws {
        for attempt in 0..<Self.attempts {
            if descriptor < 0 {
                // Replaced while this process waited (its folder swapped for a link, say): the
                // new file is opened only where no other user could have redirected it.
                if attempt > 0 { try FileSystem.checkNoOtherUserCanRedirect(path) }
                descriptor = try open(path)
            }
            while flock(descriptor, LOCK_EX) != 0 {
                if errno == EINTR { continue }
                throw FileSystem.ioError("cannot lock \(name)", path: dataPath)
            }
            if isStillValid() { return }
            close(descriptor)
            descriptor = -1
        }
        throw StorageError(.io, location: dataPath, message: "cannot lock \(name): it keeps being replaced")
    }

    /// Whether the locked file is still the one at ``path``: `false` once someone deleted or
    /// replaced the lock file, after which another process may hold a lock on the new one.
    func isStillValid() -> Bool {
        guard descriptor >= 0 else { return false }
        var held = stat()
        var current = stat()
        return fstat(descriptor, &held) == 0 && lstat(path, &current) == 0
            && held.st_ino == current.st_ino && held.st_dev == current.st_dev
    }

    /// Releases the lock; the descriptor stays open for the next ``lock()``, which checks that
    /// the path still names its file.
    package func unlock() {
        defer { endActivity() }
        guard descriptor >= 0 else { return }
        _ = flock(descriptor, LOCK_UN)
    }

    private func endActivity() {
        activity?.end()
        activity = nil
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

    /// Opens the lock file, creating it when missing. A file deleted between a failed
    /// `O_EXCL` create and the open of the existing one is created again.
    private func open(_ path: String) throws -> Int32 {
        let flags = O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC
        for _ in 0..<Self.attempts {
            let created = FileSystem.openFile(path, O_RDWR | O_CREAT | O_EXCL | flags, 0o600)
            if created >= 0 {
                _ = fchmod(created, 0o600)
                giveToDataFileOwner(created)
                return created
            }
            guard errno == EEXIST else { throw FileSystem.ioError("cannot create \(name)", path: dataPath) }
            let existing = FileSystem.openFile(path, O_RDONLY | flags, 0)
            guard existing >= 0 else {
                if errno == ENOENT { continue }
                let code = errno
                var info = stat()
                let owner =
                    lstat(path, &info) == 0 && info.st_uid != geteuid() ? " (it belongs to user \(info.st_uid))" : ""
                throw FileSystem.ioError("cannot open \(name)\(owner)", path: dataPath, errno: code)
            }
            var info = stat()
            do {
                guard fstat(existing, &info) == 0 else {
                    throw FileSystem.ioError("cannot read the attributes of \(name)", path: dataPath)
                }
                try FileSystem.requireRegularFile(info, path: dataPath, name: name)
            } catch {
                close(existing)
                throw error
            }
            return existing
        }
        throw StorageError(.io, location: dataPath, message: "cannot open \(name): it keeps being deleted")
    }

    /// Gives a lock file this process just created the data file's owner and group, so root
    /// never locks the owner out (for others `fchown` fails and the file stays theirs).
    private func giveToDataFileOwner(_ fd: Int32) {
        var data = stat()
        guard stat(dataPath, &data) == 0, data.st_uid != geteuid() || data.st_gid != getegid() else { return }
        _ = fchown(fd, data.st_uid, data.st_gid)
    }
}
