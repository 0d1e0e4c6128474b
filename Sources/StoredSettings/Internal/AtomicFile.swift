import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file's contents atomically and durably with POSIX calls.
///
/// The steps, each checked:
/// 1. create a temporary file `.<name>.tmp-<pid>-<random>` in the same folder with
///    `O_CREAT | O_EXCL | O_NOFOLLOW`, mode 0600, then `fchmod` it to the mode the file should
///    have (so the umask cannot change it);
/// 2. write all bytes, `fsync`;
/// 3. `rename` it over the file (atomic on POSIX file systems);
/// 4. `fsync` the folder, so the rename itself survives a power loss.
///
/// A crash at any moment leaves the old or the new contents, and at worst a temporary file,
/// which ``removeStaleTemporaryFiles(for:)`` deletes later.
package enum AtomicFile {
    /// The prefix of the temporary files written for `path`'s file name: `.settings.json.tmp-`.
    package static func temporaryPrefix(for path: String) -> String {
        ".\((path as NSString).lastPathComponent).tmp-"
    }

    /// Writes `data` to `path` so that a crash at any moment leaves the old or the new contents.
    ///
    /// The folder must exist. When `path` is a symbolic link, pass the path it resolves to:
    /// `rename` replaces whatever is at the path.
    ///
    /// - Parameters:
    ///   - data: The new contents.
    ///   - path: The file to replace or create.
    ///   - permissions: The permission bits of the new file (0600 for new files; the old mode
    ///     for existing ones).
    /// - Returns: The fingerprint of the written file.
    /// - Throws: ``StorageError/Code/io`` naming the path and the `errno` text (`No space left
    ///   on device`, `File too large`, `Permission denied`); the existing file is untouched then
    ///   and the temporary file removed.
    @discardableResult
    package static func write(_ data: Data, toPath path: String, permissions: UInt32 = 0o600) throws -> FileFingerprint {
        let directory = (path as NSString).deletingLastPathComponent
        let temporaryPath = (directory as NSString).appendingPathComponent(
            temporaryPrefix(for: path) + "\(getpid())-\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
        )
        let fd = FileSystem.openFile(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileSystem.ioError("cannot create a temporary file in \(directory)", path: path) }
        var removeTemporary = true
        defer { if removeTemporary { unlink(temporaryPath) } }
        var fingerprint: FileFingerprint
        do {
            defer { close(fd) }
            guard fchmod(fd, mode_t(permissions & 0o7777)) == 0 else {
                throw FileSystem.ioError("cannot set the file's permissions", path: path)
            }
            guard data.withUnsafeBytes({ FileSystem.writeAll(fd, $0) }) else {
                throw FileSystem.ioError("cannot write", path: path)
            }
            guard fsync(fd) == 0 else { throw FileSystem.ioError("cannot write (fsync)", path: path) }
            var info = stat()
            guard fstat(fd, &info) == 0 else { throw FileSystem.ioError("cannot read the file's attributes", path: path) }
            fingerprint = FileFingerprint(info)
        }
        guard rename(temporaryPath, path) == 0 else {
            throw FileSystem.ioError("cannot replace the file", path: path)
        }
        removeTemporary = false
        let directoryFD = FileSystem.openFile(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
        return fingerprint
    }

    /// Deletes temporary files that killed writers left next to `path`.
    ///
    /// Call it only while holding the file's ``FileLock``: every writer holds it while its
    /// temporary file exists, so any temporary file found then is stale.
    ///
    /// - Returns: How many files were removed.
    @discardableResult
    package static func removeStaleTemporaryFiles(for path: String) -> Int {
        let directory = (path as NSString).deletingLastPathComponent
        var removed = 0
        for name in FileSystem.entries(inDirectory: directory.isEmpty ? "." : directory, withPrefix: temporaryPrefix(for: path)) {
            if unlink((directory as NSString).appendingPathComponent(name)) == 0 { removed += 1 }
        }
        return removed
    }

    /// Whether temporary files of `path` exist (a cheap check before taking the lock).
    package static func hasTemporaryFiles(for path: String) -> Bool {
        let directory = (path as NSString).deletingLastPathComponent
        return !FileSystem.entries(inDirectory: directory.isEmpty ? "." : directory, withPrefix: temporaryPrefix(for: path)).isEmpty
    }
}
