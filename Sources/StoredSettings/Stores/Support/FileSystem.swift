package import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX calls behind ``FileStore``: none traps on what it finds on disk, and every failure is
/// a ``StorageError`` naming the path and the `errno` text.
package enum FileSystem {
    /// A ``StorageError/Code/io`` error: `what`, then the text of `code` (`strerror`).
    static func ioError(_ what: String, path: String, errno code: Int32 = errno) -> StorageError {
        StorageError(.io, location: path, message: "\(what): \(errnoText(code))")
    }

    /// `open(2)` under a name that members called `open` cannot shadow; the descriptor is never 0,
    /// 1 or 2, so a closed standard stream cannot become a settings file that `print` writes into.
    @inline(__always)
    package static func openFile(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        FileDescriptor.reserveStandardStreams()
        return FileDescriptor.movedAboveStandardStreams(open(path, flags, mode))
    }

    /// Reads the regular file at `path` whole (`nil` if there is none), refusing one over
    /// `maximumSize` before reading. `O_NONBLOCK` and `fstat` make a FIFO or device an error, not a
    /// hang; with `followingLink: false` a symbolic link throws ``SymbolicLinkFound``.
    package static func readFile(atPath path: String, maximumSize: Int, followingLink: Bool = true) throws -> (
        data: Data, fingerprint: FileFingerprint
    )? {
        let fd = openFile(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLink ? 0 : O_NOFOLLOW), 0)
        if fd < 0 {
            if errno == ELOOP, !followingLink { throw SymbolicLinkFound() }
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw ioError("cannot open the file", path: path)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw ioError("cannot read the file's attributes", path: path) }
        try requireRegularFile(info, path: path)
        let size = Int(info.st_size)
        guard size <= maximumSize else {
            throw StorageError(
                .tooLarge, location: path, message: "the file has \(size) bytes, more than the limit of \(maximumSize)")
        }
        var data = Data(count: size)
        var total = 0
        if size > 0 {
            let ok = data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) -> Bool in
                guard let base = buffer.baseAddress else { return true }
                while total < size {
                    let count = read(fd, base + total, size - total)
                    if count < 0 {
                        if errno == EINTR { continue }
                        return false
                    }
                    if count == 0 { break }
                    total += count
                }
                return true
            }
            guard ok else { throw ioError("cannot read the file", path: path) }
            // A file shortened while we read it: keep what is there.
            if total < size { data.removeSubrange(total..<size) }
        }
        return (data, FileFingerprint(info))
    }

    /// Reads `fd` (standard input, a pipe) to its end, throwing `tooLarge` as soon as more than
    /// `maximumSize` bytes arrive, so an endless stream cannot fill memory.
    package static func readToEnd(descriptor fd: Int32, maximumSize: Int, path: String) throws -> Data {
        var data = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ioError("cannot read", path: path)
            }
            if count == 0 { return data }
            guard data.count + count <= maximumSize else {
                throw StorageError(.tooLarge, location: path, message: "more than the limit of \(maximumSize) bytes")
            }
            data.append(contentsOf: chunk[0..<count])
        }
    }

    /// What ``readFile(atPath:maximumSize:followingLink:)`` throws for a symbolic link it was
    /// told not to follow (`ELOOP`; also when the path has too many links on the way).
    struct SymbolicLinkFound: Error {}

    /// Throws unless `info` describes a regular file: a FIFO, device, socket or folder where a
    /// settings file or its lock should be is ``StorageError/Code/io``, naming what it is.
    static func requireRegularFile(_ info: stat, path: String, name: String = "the path") throws {
        guard let kind = kindOfSpecialFile(info) else { return }
        throw StorageError(.io, location: path, message: "\(name) is not a regular file but \(kind)")
    }

    /// What `info` describes when it is not a regular file ("a FIFO", "a folder", "a device",
    /// "a socket", "a special file"); `nil` for a regular file.
    package static func kindOfSpecialFile(_ info: stat) -> String? {
        switch info.st_mode & S_IFMT {
        case S_IFREG: nil
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a folder"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    /// The fingerprint of the file at `path` (following symbolic links), or `nil` when there is
    /// no file. One `stat` call.
    static func fingerprint(atPath path: String) throws -> FileFingerprint? {
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw ioError("cannot read the file's attributes", path: path)
        }
        return FileFingerprint(info)
    }

    /// Creates the folder at `path` and its missing parents with mode 0700 whatever the umask
    /// (`chmod` after `mkdir`); existing folders are left as they are.
    static func createDirectories(atPath path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFDIR else {
                throw StorageError(.io, location: path, message: "cannot create the folder: a file is in the way")
            }
            return
        }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path, parent != "/" {
            try createDirectories(atPath: parent)
        }
        if mkdir(path, 0o700) != 0 {
            if errno == EEXIST { return }
            throw ioError("cannot create the folder", path: path)
        }
        _ = chmod(path, 0o700)
    }

    /// The path a chain of symbolic links at `path` ends at, so the `rename` happens in the
    /// target's folder. Links are followed by Linux's `fs.protected_symlinks` rule on every
    /// platform; a link it refuses, or a chain of more than 32 links (a loop), throws `io`.
    package static func resolvingSymbolicLinks(_ path: String) throws -> String {
        var current = path
        for _ in 0..<32 {
            var info = stat()
            guard lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else { return current }
            try checkLinkMayBeFollowed(current, owner: info.st_uid, originalPath: path)
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { throw ioError("cannot read the symbolic link", path: current) }
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("/") {
                current = target
            } else {
                current = ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(target)
            }
        }
        throw StorageError(.io, location: path, message: "too many levels of symbolic links")
    }

    /// Whether a lookup of `path` passes a symbolic link outside `/` (those in `/` are the
    /// system's), which its folder's owner may retarget. `lstat` checks each component, so a `..`
    /// after a link counts; `realpath` gives a link's folder, so `/x/../var` is in `/`.
    package static func passesRetargetableLink(_ path: String) -> Bool {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var prefix = ""
        for component in absolute.split(separator: "/") {
            let folder = prefix.isEmpty ? "/" : realPath(prefix) ?? prefix
            prefix += "/" + component
            var info = stat()
            if folder != "/", lstat(prefix, &info) == 0, info.st_mode & S_IFMT == S_IFLNK { return true }
        }
        return false
    }

    /// `realpath(3)` of `path`; `nil` when a component does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The `fs.protected_symlinks` rule: a link in a sticky, world-writable folder is refused
    /// unless this user (`geteuid`) or the folder's owner owns it.
    private static func checkLinkMayBeFollowed(_ link: String, owner: uid_t, originalPath: String) throws {
        if owner == geteuid() { return }
        let parent = (link as NSString).deletingLastPathComponent
        var folder = stat()
        guard stat(parent.isEmpty ? "." : parent, &folder) == 0 else { return }
        let stickyAndWorldWritable = folder.st_mode & S_ISVTX != 0 && folder.st_mode & S_IWOTH != 0
        guard stickyAndWorldWritable, owner != folder.st_uid else { return }
        throw StorageError(
            .io, location: originalPath,
            message:
                "refusing to follow the symbolic link \(link): it belongs to user \(owner), not to this user or the owner of its sticky world-writable folder (the fs.protected_symlinks rule)"
        )
    }

    /// The names of the entries in the folder at `path` that start with `prefix`.
    static func entries(inDirectory path: String, withPrefix prefix: String) -> [String] {
        let fd = openFile(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard fd >= 0 else { return [] }
        guard let directory = fdopendir(fd) else {
            close(fd)
            return []
        }
        defer { closedir(directory) }
        var names: [String] = []
        // Only the names that match become strings: `strncmp` stops at the end of a shorter name.
        let prefixBytes = Array(prefix.utf8CString)
        let prefixLength = prefixBytes.count - 1
        prefixBytes.withUnsafeBufferPointer { prefixBuffer in
            guard let prefixStart = prefixBuffer.baseAddress else { return }
            while let entry = readdir(directory) {
                let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                    pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { name -> String? in
                        strncmp(name, prefixStart, prefixLength) == 0 ? String(cString: name) : nil
                    }
                }
                if let name { names.append(name) }
            }
        }
        return names
    }
}

/// A file version's identity from one `stat`: device, inode, size and nanosecond modification time.
/// An atomic replace gives a new inode, so versions written in one clock tick still differ.
package struct FileFingerprint: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    private var modificationSeconds: Int64
    private var modificationNanoseconds: Int64
    /// The permission bits (`st_mode & 0o7777`); not part of equality.
    var permissions: UInt32
    /// The owner's user ID (`st_uid`); not part of equality.
    var ownerID: UInt32
    /// The group ID (`st_gid`); not part of equality.
    var groupID: UInt32

    init(_ info: stat) {
        device = UInt64(truncatingIfNeeded: info.st_dev)
        inode = UInt64(truncatingIfNeeded: info.st_ino)
        size = Int64(info.st_size)
        #if canImport(Darwin)
        modificationSeconds = Int64(info.st_mtimespec.tv_sec)
        modificationNanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #else
        modificationSeconds = Int64(info.st_mtim.tv_sec)
        modificationNanoseconds = Int64(info.st_mtim.tv_nsec)
        #endif
        permissions = UInt32(info.st_mode) & 0o7777
        ownerID = UInt32(info.st_uid)
        groupID = UInt32(info.st_gid)
    }

    package static func == (a: FileFingerprint, b: FileFingerprint) -> Bool {
        a.device == b.device && a.inode == b.inode && a.size == b.size
            && a.modificationSeconds == b.modificationSeconds
            && a.modificationNanoseconds == b.modificationNanoseconds
    }
}
