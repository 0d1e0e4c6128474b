import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Replaces a file's contents atomically and durably with POSIX calls: a temporary file created
/// exclusively in the same folder, written fully, `fsync`ed, `rename`d over the target, then the
/// folder `fsync`ed.
package enum AtomicFile {
    /// Writes `data` to `url` so that a crash at any moment leaves the old or the new contents.
    ///
    /// - Throws: ``StorageError/Code/io`` naming the path and the `errno` text; the existing
    ///   file is untouched then and the temporary file removed.
    package static func write(_ data: Data, to url: URL, mode: mode_t = 0o600) throws {
        let directory = url.deletingLastPathComponent()
        try createDirectory(directory)
        let temporaryPath = directory.appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw ioError("cannot create a temporary file", path: url.path) }
        var removeTemporary = true
        defer {
            if removeTemporary { unlink(temporaryPath) }
        }
        do {
            defer { close(fd) }
            try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
                var offset = 0
                while offset < buffer.count {
                    let written = Glibc_write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        throw ioError("cannot write", path: url.path)
                    }
                    offset += written
                }
            }
            guard fsync(fd) == 0 else { throw ioError("cannot fsync", path: url.path) }
        }
        guard rename(temporaryPath, url.path) == 0 else { throw ioError("cannot rename the temporary file", path: url.path) }
        removeTemporary = false
        let directoryFD = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    static func createDirectory(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StorageError(.io, path: url.path, message: "cannot create the folder: \((error as NSError).localizedDescription)")
        }
    }

    /// A ``StorageError/Code/io`` error with the current `errno` text.
    package static func ioError(_ what: String, path: String) -> StorageError {
        let code = errno
        return StorageError(.io, path: path, message: "\(what): \(String(cString: strerror(code)))")
    }
}

#if canImport(Darwin)
private let Glibc_write = Darwin.write
#elseif canImport(Musl)
private let Glibc_write = Musl.write
#else
private let Glibc_write = Glibc.write
#endif
