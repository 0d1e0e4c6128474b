import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
    /// Refuses a write to `path` another user could redirect with a symbolic link: when root or the
    /// entry is another user's, no folder above `path` or its real path may be writable by others
    /// or a non-root group unless sticky (`fs.protected_symlinks` trusts a sticky folder's owner),
    /// and every link on the way must be this user's or root's.
    static func checkNoOtherUserCanRedirect(_ path: String) throws {
        try checkNoWritableFolder(above: path)
        try checkNoLinkOfAnotherUser(on: path)
    }

    /// The mode rule of ``checkNoOtherUserCanRedirect(_:)``.
    private static func checkNoWritableFolder(above path: String) throws {
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

    /// Throws `insecurePermissions` if the way to `path` passes a link of a user other than this
    /// one and root, who could retarget it at any file this process may write; `io` if a component
    /// that exists cannot be looked at (`EACCES`, a link loop), as the target is then unknown.
    package static func checkNoLinkOfAnotherUser(on path: String) throws {
        let user = geteuid()
        let slash = UInt8(ascii: "/")
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var remaining = components(of: Array(absolute.utf8))
        var folder: [UInt8] = []
        var links = 0
        while let component = remaining.popLast() {
            if component == [UInt8(ascii: ".")] { continue }
            if component == [UInt8(ascii: "."), UInt8(ascii: ".")] {
                folder.removeSubrange((folder.lastIndex(of: slash) ?? 0)...)
                continue
            }
            let entry = folder + [slash] + component
            var info = stat()
            guard withCString(entry, { lstat($0, &info) }) == 0 else {
                // Missing: the write creates it (or fails). Any other failure hides the way on.
                if errno == ENOENT || errno == ENOTDIR { return }
                throw ioError("cannot check the symbolic links on the way to the file at \(text(entry))", path: path)
            }
            guard info.st_mode & S_IFMT == S_IFLNK else {
                folder = entry
                continue
            }
            if info.st_uid != user, info.st_uid != 0 {
                var parent = stat()
                let folderOwner =
                    withCString(folder.isEmpty ? [slash] : folder, { stat($0, &parent) }) == 0
                    ? " (in a folder of user \(parent.st_uid))" : ""
                throw StorageError(
                    .insecurePermissions, location: path,
                    message:
                        "refusing to write through the symbolic link \(text(entry)): it belongs to user \(info.st_uid)\(folderOwner), who could point it at any file, and this process (user \(user)) would then create or replace that file; only links of this user or of root are followed when writing"
                )
            }
            links += 1
            var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = withCString(entry) { readlink($0, &target, target.count) }
            guard links <= 40, length >= 0 else {
                throw ioError(
                    "cannot check the symbolic links on the way to the file at \(text(entry))", path: path,
                    errno: length < 0 ? errno : ELOOP)
            }
            let bytes = target[..<length].map { UInt8(bitPattern: $0) }
            if bytes.first == slash { folder = [] }
            remaining += components(of: bytes)
        }
    }

    /// The components of `path` in reverse order, for popping; empty ones (from `//`) left out.
    private static func components(of path: [UInt8]) -> [[UInt8]] {
        path.split(separator: UInt8(ascii: "/")).reversed().map(Array.init)
    }

    /// `body` given `bytes` as a NUL-terminated C string.
    private static func withCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }

    /// `path` as text for a message; bytes that are not UTF-8 shown as U+FFFD.
    private static func text(_ path: [UInt8]) -> String {
        String(decoding: path, as: UTF8.self)
    }
}
