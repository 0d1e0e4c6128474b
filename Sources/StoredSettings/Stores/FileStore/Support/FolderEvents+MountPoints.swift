#if os(Linux) || os(Android)
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension FolderEvents {
    private typealias Statx =
        @convention(c) (Int32, UnsafePointer<CChar>, Int32, UInt32, UnsafeMutableRawPointer) -> Int32

    /// `statx(2)` (Linux 4.11, glibc 2.28), looked up at run time: the Swift Glibc module does
    /// not export it.
    private static let statx: Statx? = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "statx") else { return nil }
        return unsafeBitCast(symbol, to: Statx.self)
    }()

    /// The mount the entry at `path` is on (`stx_mnt_id`, Linux 5.8), not following a final
    /// symbolic link; `nil` where the kernel does not say.
    private static func mountID(of path: String) -> UInt64? {
        guard let statx else { return nil }
        // `struct statx` is 256 bytes; `stx_mask` is at offset 0 and `stx_mnt_id` at 144.
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 8)
        defer { buffer.deallocate() }
        let mountIDMask: UInt32 = 0x1000 // STATX_MNT_ID
        guard statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, mountIDMask, buffer) == 0,
            buffer.load(as: UInt32.self) & mountIDMask != 0
        else { return nil }
        return buffer.load(fromByteOffset: 144, as: UInt64.self)
    }

    /// Whether the file at `path` is bind-mounted over another (Docker's
    /// `-v host.json:/app/settings.json`), on another mount than its folder, so it must be
    /// watched itself. Before Linux 5.8, only a file on another device than its folder counts.
    static func isMountPoint(_ path: String) -> Bool {
        let folder = (path as NSString).deletingLastPathComponent
        if let file = mountID(of: path), let parent = mountID(of: folder) { return file != parent }
        var fileInfo = stat()
        var folderInfo = stat()
        guard lstat(path, &fileInfo) == 0, stat(folder, &folderInfo) == 0 else { return false }
        return fileInfo.st_dev != folderInfo.st_dev
    }
}
#endif
