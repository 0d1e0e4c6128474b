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

        /// Whether, and where the platform has no file event source how often, the store
        /// checks that another process or a person changed the file: by default on every file
        /// event, else every 250 milliseconds.
        ///
        /// `nil` turns the store's own change detection off entirely: no `inotify` or `kqueue`
        /// watch, no polling, no background work at all. The store then sees other processes'
        /// changes only when it writes (each write re-reads a file that changed, under the
        /// lock) and when you call ``FileStore/reload()``: the way for a long-running tool that
        /// re-reads its settings only on `SIGHUP` (`StoredSettingsCommandLine`'s article).
        ///
        /// On Linux the store learns of changes from `inotify` on the file's folder (and the
        /// folders on the way to it, resolved again when the path may lead elsewhere), on Apple
        /// platforms from `kqueue` on the folder and the file, so a store whose file nobody
        /// changes never wakes, and a change shows up within milliseconds. The interval applies
        /// only where no event source exists or none can be had (no file descriptor free, the
        /// system's `inotify` watch limit reached; on Apple platforms, a folder that does not
        /// exist yet): then each check is one `stat` call on a background thread shared by
        /// every store in the process, which needs no file descriptor. Either way the file is
        /// read only when its inode, size or modification time changed, and reads never touch
        /// the disk. <doc:PlatformNotes> says what each platform sees.
        public var changeCheckInterval: Duration?

        /// When a setter returns: once its change is on disk (``WriteMode/durable``, the
        /// default) or once it is in memory (``WriteMode/writeBehind``, for app interfaces).
        public var writeMode: WriteMode

        /// Whether a write on Apple platforms makes the drive flush its whole cache
        /// (`F_FULLFSYNC`), so that it survives a power loss once the write returns: `false` by
        /// default, where the write is an ordering barrier (`F_BARRIERFSYNC`) that still never
        /// leaves a torn file but may lose the newest write to a power loss. No effect on Linux,
        /// where `fsync` flushes the drive's cache. <doc:PlatformNotes> compares them.
        public var flushesDriveCache: Bool = false

        /// The largest file read or written by default: 16 MiB.
        @usableFromInline package static let defaultMaximumFileSize = 16 * 1024 * 1024

        /// Runs after the store has read its file and before it starts watching it: a test's
        /// way to change the file inside that gap. Not part of the API, nor of equality.
        package var afterOpeningForTesting: TestHook?

        /// Creates options.
        ///
        /// - Parameters:
        ///   - maximumFileSize: The largest file read or written, in bytes.
        ///   - corruptFilePolicy: What to do with a file that does not parse.
        ///   - changeCheckInterval: How often to look for external changes where the platform
        ///     has no file events; `nil` for never (not even on events): only writes and
        ///     ``FileStore/reload()`` then read other processes' changes.
        ///   - writeMode: When a setter returns; see ``WriteMode``.
        public init(
            maximumFileSize: Int = Options.defaultMaximumFileSize,
            corruptFilePolicy: CorruptFilePolicy = .throwError,
            changeCheckInterval: Duration? = .milliseconds(250),
            writeMode: WriteMode = .durable
        ) {
            self.maximumFileSize = maximumFileSize
            self.corruptFilePolicy = corruptFilePolicy
            self.changeCheckInterval = changeCheckInterval
            self.writeMode = writeMode
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

extension FileStore.Options {
    /// A closure a test runs at a chosen point of a store's work. All hooks compare equal, so
    /// options with and without one are the same options.
    package struct TestHook: Equatable, Sendable {
        let body: @Sendable () -> Void

        package init(_ body: @escaping @Sendable () -> Void) { self.body = body }

        package static func == (lhs: TestHook, rhs: TestHook) -> Bool { true }
    }
}
