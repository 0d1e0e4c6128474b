import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock(2)` on the folder that holds the UserDefaults domain files, held by one
/// `stored --domain` command from before it opens the suite until it exits.
///
/// Foundation on Linux saves a suite by rewriting its whole `.plist` from the copy this process
/// read, with no lock between processes, so two `stored write --domain` at once lose one
/// another's keys. Holding this lock around the read, the change and `synchronize()` makes each
/// command start from the file the previous one left. The lock is on the folder itself (opened
/// read-only), not on a sidecar file, so no lock files are left next to the domains; it
/// excludes only other `stored` commands, not other programs using `UserDefaults`.
///
/// The kernel releases the lock when the descriptor closes, also when the process is killed.
/// Not thread-safe; one per command.
final class DomainLock {
    private let descriptor: Int32

    /// Blocks until this process holds the lock on `folder`.
    ///
    /// - Throws: ``StorageError/Code/io`` naming `domain` and the folder when the folder cannot
    ///   be opened or locked.
    init(folder: String, domain: String) throws {
        let descriptor = FileSystem.openFile(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0)
        guard descriptor >= 0 else {
            throw StorageError(
                .io, location: domain,
                message: "\(folder): cannot open the folder to lock it: \(String(cString: strerror(errno)))")
        }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno == EINTR { continue }
            let reason = String(cString: strerror(errno))
            close(descriptor)
            throw StorageError(.io, location: domain, message: "\(folder): cannot lock the folder: \(reason)")
        }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
