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
/// released.
///
/// The lock file can be deleted or replaced while someone holds it (`rm -f settings.json.lock`):
/// then a newcomer creates a new file at the path and locks that, and two writers are in at
/// once. Two checks close this: after `flock` returns, ``lock()`` checks that the path still
/// names the file it locked (`fstat` against `stat`) and starts over if not; and
/// ``isStillValid()`` repeats that check, which ``FileStore`` does right before each `rename`,
/// giving up the write and starting over when its lock was taken away.
///
/// A lock file this process creates belongs to the settings file's owner and group when they
/// differ from this process's (root writing a user's settings), so the owner is never locked
/// out. The file is opened with `O_NONBLOCK | O_NOFOLLOW` and must be a regular file: a FIFO
/// or a link at the path is an error, never a hang.
///
/// On iOS, tvOS, watchOS and visionOS the process asks for background time from before the
/// `flock` until ``unlock()`` (``BackgroundActivity``): a process suspended while it holds the
/// lock of a file in a shared container is killed.
///
/// Meant for one thread at a time: ``FileStore`` uses it only under its own in-process lock (it
/// is `Sendable` so that lock's state is, and each access to the descriptor is locked, but two
/// threads calling ``lock()`` at once would share one `flock`). Two instances in
/// one process exclude each other like two processes do, because `flock` locks belong to open
/// file descriptions.
package final class FileLock: Sendable {
    /// The lock file's path.
    package let path: String
    /// The lock file's descriptor (-1 while none is open) and the background time asked for
    /// while the lock is held or awaited.
    private let state = Lock<(descriptor: Int32, activity: BackgroundActivity?)>((-1, nil))
    private var descriptor: Int32 {
        get { state.withLock { $0.descriptor } }
        set { state.withLock { $0.descriptor = newValue } }
    }

    /// Whether background time is asked for now: from ``lock()`` until ``unlock()``.
    package var holdsBackgroundActivity: Bool { state.withLock { $0.activity != nil } }

    /// How many times ``lock()`` starts over when the lock file keeps being replaced.
    static let attempts = 1000

    /// A lock on the file at `path` (the data file's path plus `.lock`), created (mode 0600)
    /// on first use. Errors name the data file, whose write needed the lock.
    package init(path: String) {
        self.path = path
    }

    deinit {
        let (descriptor, activity) = state.withLock { $0 }
        if descriptor >= 0 { close(descriptor) }
        activity?.end()
    }

    /// Blocks until this process holds the lock on the file that is at ``path`` now.
    ///
    /// - Throws: ``StorageError/Code/io`` when the lock file cannot be created, opened or
    ///   locked (a read-only folder, a FIFO at the path, no free descriptor), naming the path
    ///   and the `errno` text; ``StorageError/Code/insecurePermissions`` when the lock file was
    ///   replaced meanwhile and its path now passes a link or folder another user could change.
    package func lock() throws {
        // Asked for before the wait, as Apple asks: the time must cover the whole hold.
        state.withLock { $0.activity = $0.activity ?? BackgroundActivity(reason: "writing \(name)") }
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
    package func isStillValid() -> Bool {
        guard descriptor >= 0 else { return false }
        var held = stat()
        var current = stat()
        return fstat(descriptor, &held) == 0 && lstat(path, &current) == 0
            && held.st_ino == current.st_ino && held.st_dev == current.st_dev
    }

    /// Releases the lock; the descriptor stays open for the next ``lock()``, which checks
    /// after its `flock` that the path still names that file, and opens the new one if the
    /// lock file was replaced meanwhile (checking here as well cost every write two calls).
    package func unlock() {
        defer { endActivity() }
        guard descriptor >= 0 else { return }
        _ = flock(descriptor, LOCK_UN)
    }

    private func endActivity() {
        state.withLock { state in
            state.activity?.end()
            state.activity = nil
        }
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

    /// Gives a lock file this process just created the owner and group of the data file, when
    /// it exists and they differ (only root may do so; for others the call fails and the lock
    /// file stays theirs).
    private func giveToDataFileOwner(_ fd: Int32) {
        var data = stat()
        guard stat(dataPath, &data) == 0, data.st_uid != geteuid() || data.st_gid != getegid() else { return }
        _ = fchown(fd, data.st_uid, data.st_gid)
    }
}
