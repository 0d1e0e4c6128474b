import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
    /// Refuses a write to `path` that another user could redirect: when this process is root,
    /// or the entry at `path` belongs to another user, no folder above it may be writable by
    /// its group (other than root's) or others unless it is sticky (as `/tmp` is).
    ///
    /// In such a folder anyone may replace the settings file, or a folder above it, with a
    /// symbolic link to any path, and the write would then create or replace that path (a
    /// file in `/etc/sudoers.d`, for root). The folders are those of `path` as given and of its
    /// real path (`realpath` of the deepest folder that exists), so a linked folder is checked
    /// on both sides; folders the write would create are this process's own. The check reads
    /// only modes (`stat`), before any link is followed. A folder's owner is trusted, as the
    /// kernel's `fs.protected_symlinks` trusts it: root writing below a folder another user
    /// owns (a `sudo` run on that user's settings) trusts that user.
    ///
    /// - Throws: ``StorageError/Code/insecurePermissions`` naming the folder and its mode.
    package static func checkNoOtherUserCanRedirect(_ path: String) throws {
        let user = geteuid()
        var entry = stat()
        guard user == 0 || (lstat(path, &entry) == 0 && entry.st_uid != user) else { return }
        var folders: [String] = []
        var folder = (path as NSString).deletingLastPathComponent
        while !folder.isEmpty, folder != "/" {
            folders.append(folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
        if let existing = folders.first(where: { access($0, F_OK) == 0 }), var folder = realPath(existing) {
            while !folder.isEmpty, folder != "/" {
                folders.append(folder)
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        for folder in folders {
            var info = stat()
            guard stat(folder, &info) == 0, info.st_mode & S_ISVTX == 0 else { continue }
            // Group write counts unless the group is root's (gid 0), whose members are root's peers.
            guard info.st_mode & S_IWOTH != 0 || (info.st_mode & S_IWGRP != 0 && info.st_gid != 0) else { continue }
            let mode = String(info.st_mode & 0o7777, radix: 8).leftPadded(to: 4)
            throw StorageError(
                .insecurePermissions, location: path,
                message:
                    "refusing to write: the folder \(folder) can be written by other users and is not sticky (mode \(mode)), so anyone could replace the file with a link to any path; run chmod go-w on it"
            )
        }
    }
}
