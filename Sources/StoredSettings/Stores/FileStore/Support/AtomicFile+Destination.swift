import Foundation

extension AtomicFile {
    /// The paths one file's atomic writes use: the file, its folder and the start of its
    /// temporary files' paths, worked out once.
    ///
    /// Foundation's path functions (`deletingLastPathComponent`, `lastPathComponent`) clean
    /// the whole path of repeated slashes on every call, which cost a durable write more
    /// instructions than its system calls; a ``FileStore`` keeps one destination per target
    /// and writes through it.
    package struct Destination: Equatable, Sendable {
        /// The file replaced by a write.
        package let path: String
        /// Its folder, as `deletingLastPathComponent` gives it; empty for a bare file name.
        package let directory: String
        /// The folder to open for its `fsync` and to list for stale temporary files.
        package let directoryToOpen: String
        /// The prefix of the file's temporary files' names: `.settings.json.tmp-`.
        package let temporaryPrefix: String
        /// The folder's path joined with ``temporaryPrefix``: a temporary file's path is this
        /// followed by a unique suffix.
        package let temporaryPathPrefix: String

        /// The destination for writes to `path` (already resolved, when it is a symbolic link).
        package init(path: String) {
            self.path = path
            directory = (path as NSString).deletingLastPathComponent
            directoryToOpen = directory.isEmpty ? "." : directory
            temporaryPrefix = AtomicFile.temporaryPrefix(for: path)
            temporaryPathPrefix = (directory as NSString).appendingPathComponent(temporaryPrefix)
        }

        /// The path of the entry `name` (a name without slashes) in the file's folder, as
        /// `appendingPathComponent` gives it.
        package func pathInDirectory(_ name: String) -> String {
            if directory.isEmpty { return name }
            return directory.hasSuffix("/") ? directory + name : directory + "/" + name
        }
    }
}
