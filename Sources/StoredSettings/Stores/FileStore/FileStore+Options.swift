import Foundation

extension FileStore {
    /// How a ``FileStore`` treats its file: the size limit, what to do with a file that does not
    /// parse, and how often to look for changes made by others.
    ///
    /// ```swift
    /// var options = FileStore.Options()
    /// options.corruptFilePolicy = .moveAside
    /// let store = try FileStore(url: URL(fileURLWithPath: "settings.json"), options: options)
    /// ```
    public struct Options: Sendable, Equatable {
        /// The largest file, in bytes, the store reads or writes: 16 MiB by default.
        ///
        /// A larger file is refused with ``StorageError/Code/tooLarge`` before any of it is read
        /// (the size comes from `fstat`), and a write that would produce one throws the same
        /// error and writes nothing.
        public var maximumFileSize: Int

        /// What opening a file that does not parse does: ``CorruptFilePolicy/throwError`` by
        /// default.
        public var corruptFilePolicy: CorruptFilePolicy

        /// How often the store checks whether another process or a person changed the file:
        /// every 250 milliseconds by default; `nil` checks only before each write.
        ///
        /// Each check is one `stat` call on a background thread shared by every store in the
        /// process (it needs no file descriptor); the file is read only when its inode, size or
        /// modification time changed. Reads never touch the disk.
        public var changeCheckInterval: Duration?

        /// The default options: 16 MiB, throw on corrupt files, check every 250 milliseconds.
        @usableFromInline package static let defaultMaximumFileSize = 16 * 1024 * 1024

        /// Creates options.
        ///
        /// - Parameters:
        ///   - maximumFileSize: The largest file read or written, in bytes.
        ///   - corruptFilePolicy: What to do with a file that does not parse.
        ///   - changeCheckInterval: How often to look for external changes; `nil` for never.
        public init(
            maximumFileSize: Int = Options.defaultMaximumFileSize,
            corruptFilePolicy: CorruptFilePolicy = .throwError,
            changeCheckInterval: Duration? = .milliseconds(250)
        ) {
            self.maximumFileSize = maximumFileSize
            self.corruptFilePolicy = corruptFilePolicy
            self.changeCheckInterval = changeCheckInterval
        }
    }

    /// What a ``FileStore`` does when its file does not parse (``StorageError/Code/dataCorrupted``
    /// or ``StorageError/Code/nestingTooDeep``).
    public enum CorruptFilePolicy: Sendable, Equatable {
        /// Throw the error and leave the file untouched: the default. Nothing is written to
        /// the file until it parses again.
        case throwError
        /// Rename the file to `<name>.corrupt-<UTC timestamp>` next to it (for example
        /// `settings.json.corrupt-20260130T101500Z`), report that to ``StorageErrorReporter``,
        /// and start with an empty store. Files over the size limit are still refused.
        case moveAside
    }
}

extension StorageError.Code {
    /// A settings file can be written by other users (its mode has the group- or world-write
    /// bit): anyone in that group could change the program's settings. Reported, not thrown,
    /// by ``FileStore``.
    public static let insecurePermissions = StorageError.Code("insecurePermissions")
}
