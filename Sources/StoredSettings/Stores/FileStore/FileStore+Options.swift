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

        /// Whether the store watches its file for other processes' changes, and how often it
        /// checks where no file events can be had: every 250 milliseconds by default.
        ///
        /// The store learns of changes from `inotify` (Linux) or `kqueue` (Apple platforms);
        /// the interval applies only where neither can be had, to one `stat` per check on a
        /// shared background thread. `nil` turns watching off: the store then sees other
        /// processes' changes only when it writes or you call ``FileStore/reload()``.
        /// <doc:ConfigurationFiles> and <doc:PlatformNotes> say what each platform sees.
        public var changeCheckInterval: Duration?

        /// When a setter returns: once its change is on disk (``WriteMode/durable``, the
        /// default) or once it is in memory (``WriteMode/writeBehind``, for app interfaces).
        public var writeMode: WriteMode

        /// Whether a write on Apple platforms flushes the drive's cache (`F_FULLFSYNC`), so it
        /// survives a power loss once it returns; by default `false`: an ordering barrier
        /// (`F_BARRIERFSYNC`) that may lose the newest write. No effect on Linux.
        /// <doc:PlatformNotes> compares them.
        public var flushesDriveCache: Bool = false

        /// The largest file read or written by default: 16 MiB.
        @usableFromInline package static let defaultMaximumFileSize = 16 * 1024 * 1024

        /// Runs between the store's first read and its watch, for tests; not part of equality.
        package var afterOpeningForTesting: TestHook?

        /// Runs before each durable step of the store's writes, for tests and benchmarks.
        package var durabilityHook: DurabilityHook?

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
