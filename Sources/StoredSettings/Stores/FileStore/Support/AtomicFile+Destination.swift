import Foundation

extension AtomicFile {
    /// The paths one file's atomic writes use: the file, its folder and the start of its
    /// temporary files' paths, worked out once, since Foundation's path functions are costly.
    package struct Destination: Equatable, Sendable {
        /// The file replaced by a write.
        let path: String
        /// Its folder, as `deletingLastPathComponent` gives it; empty for a bare file name.
        package let directory: String
        /// The folder to open for its `fsync` and to list for stale temporary files.
        let directoryToOpen: String
        /// The prefix of the file's temporary files' names: `.settings.json.tmp-`.
        let temporaryPrefix: String
        /// The folder's path joined with ``temporaryPrefix``: a temporary file's path is this
        /// followed by a unique suffix.
        package let temporaryPathPrefix: String

        /// The destination for writes to `path` (already resolved, when it is a symbolic link).
        package init(path: String) {
            self.path = path
            let (directory, name) = Self.split(path)
            self.directory = directory
            directoryToOpen = directory.isEmpty ? "." : directory
            temporaryPrefix = ".\(name).tmp-"
            temporaryPathPrefix = Self.path(of: temporaryPrefix, in: directory)
        }

        /// The path of the entry `name` (a name without slashes) in `directory`, as
        /// `appendingPathComponent` gives it.
        private static func path(of name: String, in directory: String) -> String {
            if directory.isEmpty { return name }
            return directory.hasSuffix("/") ? directory + name : directory + "/" + name
        }

        /// `path`'s folder and last component, as `deletingLastPathComponent` and
        /// `lastPathComponent` give them; a clean path is split at its last slash directly.
        package static func split(_ path: String) -> (directory: String, name: String) {
            let bytes = path.utf8
            let slash = UInt8(ascii: "/")
            // A bare name is its own last component (Foundation on Linux traps on some).
            guard let last = bytes.lastIndex(of: slash) else { return ("", path) }
            guard bytes.count > 1, bytes.last != slash,
                !zip(bytes, bytes.dropFirst()).contains(where: { $0 == slash && $1 == slash })
            else {
                return ((path as NSString).deletingLastPathComponent, (path as NSString).lastPathComponent)
            }
            let directory = last == bytes.startIndex ? "/" : String(Substring(bytes[..<last]))
            return (directory, String(Substring(bytes[bytes.index(after: last)...])))
        }

        /// The path of the entry `name` (a name without slashes) in the file's folder, as
        /// `appendingPathComponent` gives it.
        func pathInDirectory(_ name: String) -> String {
            Self.path(of: name, in: directory)
        }
    }
}
