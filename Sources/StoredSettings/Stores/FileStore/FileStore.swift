public import Foundation

/// A store that keeps settings in one JSON or property-list file: the backend for
/// command-line tools, and for apps that want a file they control.
///
/// ```swift
/// let store = try FileStore(url: URL(fileURLWithPath: "settings.json"))
/// try store.setValue(.bool(true), forKey: "autoReload")
/// ```
///
/// What it guarantees (the <doc:ConfigurationFiles> article explains each, and its limits):
/// - **Durable, atomic writes.** When a write returns, the file is on disk: a temporary file
///   in the same folder is written, `fsync`ed and `rename`d over the file, then the folder is
///   `fsync`ed. A crash leaves the old or the new file, never a half-written one; temporary
///   files of killed writers are removed by the next write, from any store (a live writer's,
///   which it keeps `flock`ed, never are).
/// - **Several processes.** Every write re-reads the file if another process changed it, and
///   applies only its own changes, under an exclusive `flock` on `settings.json.lock`, so no
///   update is lost and ``update(forKey:_:)`` is atomic across processes, even when someone
///   deletes the lock file meanwhile. Opening and reading never wait for another process.
/// - **Other programs' saves.** A write that finds the file empty or cut short (an editor
///   saving in place) waits up to half a second for it to settle, and never writes over a
///   file that held settings because it was seen empty.
/// - **External changes** (another process, a person editing the file) show up within
///   milliseconds, from the platform's file events (`inotify` on Linux, `kqueue` on Apple
///   platforms; a `stat` check every quarter of a second where none can be had, see
///   ``Options/changeCheckInterval``), and are delivered once through ``changes()``. The
///   watch is placed 2 ms after the open, off the caller's thread, and a store released
///   sooner is never watched; a change made in between is still seen. A store
///   whose file nobody changes never wakes. Reads never touch the disk. With the interval
///   `nil` the store does not watch at all, and ``reload()`` reads the file when you ask
///   (on `SIGHUP`, say).
/// - **Unreadable files are never destroyed**: opening one throws, naming the path and the
///   line and column, unless ``CorruptFilePolicy/moveAside`` is chosen.
/// - **Permissions**: new files are 0600 and new folders 0700 whatever the umask; an existing
///   file keeps its mode, owner and group. A settings file that is a symbolic link is updated
///   at its target; links are followed by the `fs.protected_symlinks` rule. A FIFO or other
///   special file at the path is an I/O error, never a hang.
///
/// JSON files are pretty-printed with sorted keys and a trailing newline, so people can read,
/// diff and edit them. Property lists keep the encoding they have (XML or binary); new ones are
/// XML.
///
/// Thread-safety: every member may be used from any thread or task. Writes from one store are
/// serialized; ``setValue(_:forKey:)`` calls waiting on one another share one write and its
/// `fsync`s (group commit, see <doc:ConfigurationFiles>). Reads are a locked dictionary lookup
/// and never wait for a write's disk I/O.
public final class FileStore: Storable {
    /// The file format of a ``FileStore``.
    public enum Format: Sendable, Equatable {
        /// JSON text, pretty-printed with sorted keys.
        case json
        /// A property list: XML for new files; an existing binary property list stays binary.
        case propertyList

        /// The format for a file name: `propertyList` for `.plist`, `json` otherwise.
        public init(pathExtension: String) {
            self = pathExtension.lowercased() == "plist" ? .propertyList : .json
        }

        /// `propertyList` when the last component of `path` ends in `.plist` (any case) after
        /// a character other than a dot, as `URL.pathExtension` reads it; `json` otherwise.
        /// Parsing a URL for its extension costs more than a small file's whole parse.
        init(path: String) {
            let slash = UInt8(ascii: "/")
            let reversedName = path.utf8.reversed().drop { $0 == slash }.prefix { $0 != slash }
            let endsInPlist = reversedName.starts(with: "tsilp.".utf8) { byte, expected in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == expected : byte == expected
            }
            let hasStem = reversedName.dropFirst(6).contains { $0 != UInt8(ascii: ".") }
            self = endsInPlist && hasStem ? .propertyList : .json
        }
    }

    /// The settings file, as given (a symbolic link stays a link; writes go to its target).
    public let url: URL
    /// The format the file is read and written in.
    public let format: Format
    /// ``url``'s path, worked out once: `URL.path` builds a new string on each call, and
    /// every write and change check starts from it.
    let path: String
    /// The options the store was opened with.
    public let options: Options

    let storage: DictionaryStorage
    let file: Lock<FileState>
    /// The name under which ``UpdateScope`` marks this store's update bodies: the identity of
    /// ``file``, the lock that serializes its writes, worked out once (building it took a write
    /// more instructions than its JSON).
    let medium: String
    let watcher = Lock<FileWatcher?>(nil)
    /// What the change check compares the file with, read without waiting for a write in
    /// progress (which holds ``file`` through its `fsync`s and while it waits for the `flock`).
    let versions: Lock<Versions>
    /// The `setValue` calls waiting for the write in progress (group commit).
    let writeGroup = WriteGroup()
    /// The changes not yet written: every set in ``WriteMode/writeBehind`` mode, and those of
    /// ``setValueInBackground(_:forKey:)``.
    let writeBehind = WriteBehind()

    /// The versions of the file a change check knows for this store's own.
    struct Versions: Sendable {
        /// A copy of ``FileState/fingerprint``.
        var loaded: FileFingerprint?
        /// The version this store's write in progress is renaming into place (set right before
        /// its `rename`, cleared once ``loaded`` names it), so that the change check the
        /// `rename` wakes knows the file for this store's own and does not wait for the write
        /// to finish; `nil` between writes.
        var writing: FileFingerprint?
        /// How many times ``checkForExternalChange()`` ran, for tests of the watcher.
        var checkCount = 0
        /// A copy of ``FileState/encoding``, for the write-behind setter's checks, which never
        /// wait for a write in progress.
        var encoding: PropertyListValue.FileEncoding = .xml
        /// Set by a change check that found ``file`` held: its holder runs the check once it
        /// releases it.
        var checkDeferred = false
        /// How many change checks in a row could not read the file.
        var failedReads = 0
    }

    /// What the store knows about the file, guarded by ``file``, which also serializes this
    /// store's writes and reloads.
    struct FileState: Sendable {
        /// The version of the file the values in memory come from; `nil` when there was none.
        var fingerprint: FileFingerprint? {
            didSet { versions.withLock { $0.loaded = fingerprint } }
        }
        /// The store's ``FileStore/versions``, which holds a copy of ``fingerprint``.
        let versions: Lock<Versions>
        /// The encoding a property-list file is rewritten in.
        var encoding: PropertyListValue.FileEncoding = .xml {
            didSet { versions.withLock { $0.encoding = encoding } }
        }
        /// A JSON file's text for each key as last read, so a write keeps unchanged keys as
        /// the file spelled them (a file this store wrote holds the same text for them).
        var source = StoredValueJSON.SourceText()
        /// The cross-process lock, opened on first use.
        var lock: FileLock?
        /// A version that did not parse and was reported already, so it is not reported again.
        var reportedBadFingerprint: FileFingerprint?
        /// The last error the change check met before it could look at a version (a symbolic
        /// link refused, a loop of links), so that each check does not report it again.
        var reportedPathProblem: StorageError?

        /// The paths the atomic writes of the target use, worked out on its first write.
        var destination: AtomicFile.Destination?

        mutating func destination(forTarget target: String) -> AtomicFile.Destination {
            if let destination, destination.path == target { return destination }
            let created = AtomicFile.Destination(path: target)
            destination = created
            return created
        }

        mutating func lock(forTarget target: String) -> FileLock {
            let path = target + ".lock"
            if let lock, lock.path == path { return lock }
            let created = FileLock(path: path)
            lock = created
            return created
        }
    }

    /// Opens the settings file at `url`, reading it if it exists.
    ///
    /// A missing file, or an empty (0-byte) one, is an empty store; the file and its missing
    /// parent folders (mode 0700) are created on the first write. Temporary files left by a
    /// killed writer are removed. Opening never waits for another process's write (except
    /// ``CorruptFilePolicy/moveAside`` moving a file that does not parse aside, under the
    /// lock). When the file is group- or world-writable, a
    /// ``StorageError/Code/insecurePermissions`` error is reported to ``StorageErrorReporter``.
    ///
    /// - Parameters:
    ///   - url: A file URL; it may be a symbolic link. A relative URL is made absolute against
    ///     its base (else the current folder) now; `..` is left for the kernel to resolve, so a
    ///   `..` after a symbolic-linked folder leads where `open(2)` goes.
    ///   - format: The file format; by default chosen by the file extension (`.plist` is a
    ///     property list, anything else JSON).
    ///   - options: Size limit, corrupt-file policy and change checking; see ``Options``.
    /// - Throws: ``StorageError/Code/dataCorrupted`` when the file does not parse (with the line
    ///   and column where the parser gives them) or its root is not an object;
    ///   ``StorageError/Code/nestingTooDeep`` when it nests deeper than 64 levels;
    ///   ``StorageError/Code/tooLarge`` when it is larger than ``Options/maximumFileSize``
    ///   (checked before reading); ``StorageError/Code/io`` when it cannot be read (among
    ///   others: it is a FIFO or another special file; no file descriptor is free; it is a
    ///   symbolic link that the `fs.protected_symlinks` rule refuses). The file is left
    ///   untouched, unless the policy is ``CorruptFilePolicy/moveAside``.
    public init(url: URL, format: Format? = nil, options: Options = Options()) throws {
        path = Self.absolutePath(of: url)
        // A file URL with no base and no trailing slash already names the file as `path` does;
        // building another costs about as much as parsing a small file. (`isDirectory: false`:
        // without it, URL asks the file system, with an `lstat`, what the path is.)
        let isAbsoluteFileURL = url.isFileURL && url.baseURL == nil && !url.hasDirectoryPath
        self.url = isAbsoluteFileURL ? url : URL(fileURLWithPath: path, isDirectory: false)
        let format = format ?? Format(path: path)
        self.format = format
        self.options = options
        let versions = Lock(Versions())
        self.versions = versions
        var state = FileState(versions: versions)
        var reports: [StorageError] = []
        let values = try Self.open(
            path: path, format: format, options: options, state: &state, reports: &reports)
        storage = DictionaryStorage(values, defersAnnouncements: true)
        file = Lock(state)
        medium = UpdateScope.medium(file)
        options.afterOpeningForTesting?.body()
        if let interval = options.changeCheckInterval {
            // Off the caller's path and 2 ms later: placing watches costs the kernel a walk of
            // each watched folder's cached entries (milliseconds for a busy /tmp), which no read
            // needs; a store released sooner (a tool's run) is never watched. The watch's first
            // look finds a write made since the read above.
            ChangeCheckScheduler.shared.runOnce { [weak self] in self?.startWatching(interval: interval) }
        }
        for report in reports { StorageErrorReporter.report(report) }
    }

    /// Starts watching the file for changes by other processes.
    private func startWatching(interval: Duration) {
        let watcher = FileWatcher(path: path, interval: interval) { [weak self] in
            self?.checkForExternalChange()
        }
        self.watcher.withLock { $0 = watcher }
        // A write that landed between the open's check and the watch's start sent no event the
        // watch could see: look once more, now that any later write will be seen.
        checkForExternalChange(counted: false)
    }

    /// Opens `settings.json` of `application` in the user's configuration folder.
    ///
    /// For command-line tools on macOS, and on Linux: `$XDG_CONFIG_HOME/<application>/settings.json` when
    /// `XDG_CONFIG_HOME` is an absolute path, else `$HOME/.config/<application>/settings.json`,
    /// else the same under the home folder of the user's password-database entry
    /// (`getpwuid_r`); never under the filesystem root. On iOS, tvOS, watchOS and visionOS,
    /// where an app writes inside its container, and for a macOS app bundle (sandboxed or
    /// not): `<application>/settings.json` in the
    /// container's Application Support folder (`FileManager`'s `.applicationSupportDirectory`
    /// in the user domain); on tvOS, where an app cannot create that folder, in its Caches
    /// folder, which the system may purge when storage runs low. <doc:PlatformNotes> lists the
    /// folders.
    ///
    /// - Parameters:
    ///   - application: The application's name: the folder under the configuration folder.
    ///   - options: See ``Options``.
    /// - Throws: ``StorageError/Code/invalidKey`` for an application name that is empty, `.`,
    ///   contains `/`, `..`, NUL or control characters, or starts with `-`;
    ///   ``StorageError/Code/io`` when no home folder (or Application Support folder) can be
    ///   found; ``StorageError/Code/dataCorrupted`` naming the variable when the
    ///   `XDG_CONFIG_HOME` or `HOME` that names the folder is not valid UTF-8 (read from the
    ///   environment's bytes, never with U+FFFD in their place); otherwise what
    ///   ``init(url:format:options:)`` throws.
    public convenience init(application: String, options: Options = Options()) throws {
        let (environment, notUTF8) = EnvironmentStore.processVariables(named: ["XDG_CONFIG_HOME", "HOME"])
        let url = try Self.defaultURL(application: application, environment: environment, notUTF8: notUTF8)
        try self.init(url: url, options: options)
    }

    deinit {
        watcher.withLock { $0?.cancel() }
    }

    /// The path of the file, for error messages; followed by ` (write-behind)` in
    /// ``WriteMode/writeBehind`` mode, so that no message passes such a store for a durable one.
    public var location: String? { options.writeMode == .durable ? path : path + " (write-behind)" }

    /// The value stored under `key`, from memory.
    ///
    /// - Complexity: O(1): a dictionary lookup under a lock; it never touches the disk.
    public func value(forKey key: String) -> StoredValue? {
        storage.value(forKey: key)
    }

    /// The value and the store's revision, from memory. The revision grows with every change,
    /// whether written by this store or loaded from the file.
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        storage.valueWithRevision(forKey: key)
    }

    /// Every key in the file, as of the last write or check for changes.
    public func keys() -> [String] {
        storage.keys()
    }

    /// Stores `value` under `key` (removes the key for `nil`) and writes the file before
    /// returning; in ``WriteMode/writeBehind`` mode, returns once the value is in memory and
    /// leaves the write to the store's background writer (``flush()`` waits for it).
    ///
    /// Under the cross-process lock, the file is re-read first if another process changed it;
    /// only `key` is changed, so other processes' keys are kept.
    ///
    /// - Throws: ``StorageError/Code/invalidKey``; ``StorageError/Code/encodingFailed`` (a NaN
    ///   in JSON; in an XML property list, a character XML 1.0 cannot hold, such as U+0001); ``StorageError/Code/tooLarge`` when the file
    ///   would exceed ``Options/maximumFileSize``; ``StorageError/Code/io`` naming the path and
    ///   the `errno` text (read-only folder, full disk, no free descriptor, a file whose owner
    ///   this process may not keep); ``StorageError/Code/insecurePermissions`` when another user
    ///   could redirect the write (root, or another user's file, below a group- or
    ///   world-writable folder that is not sticky; a symbolic link on the way that belongs to
    ///   neither this user nor root); ``StorageError/Code/dataCorrupted`` when another process
    ///   left a file that does not parse, or emptied a file that held settings, and it did not
    ///   settle into one that parses within about half a second. The file and the values in
    ///   memory keep the previous value then.
    ///
    /// Group commit: calls that wait for another thread's write to this store queue their
    /// change; the next write commits every queued change in order as one file, with one
    /// `fsync` of the file and one of the folder, and each call returns once its change is on
    /// disk. A failure of that shared write fails every call of the group, and none of their
    /// changes is kept; a key conflict fails only its own call. Each change is delivered once
    /// through ``changes()``, in commit order. ``update(forKey:_:)`` and ``batch(_:)`` bodies
    /// never join a group: they run alone, on the caller's thread. Across processes, writes
    /// still take turns on the `flock`.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        if options.writeMode == .writeBehind { return try setValueInBackground(value, forKey: key) }
        try StorageError.validate(key: key, location: path)
        try commitInGroup(value, forKey: key)
    }

    /// Stores `value` under `key` in memory and leaves the file to the store's background
    /// writer, in either ``WriteMode``: what a setter on an app's main thread calls, since it
    /// never waits for another process's `flock`, a file to settle or an `fsync`.
    ///
    /// The change is visible at once to every reader of the store and delivered through
    /// ``changes()`` and to observers before this returns. Changes made while the writer waits
    /// or writes are written together, as one file, as atomically and durably as a durable
    /// write, by the next run of the writer. ``flush()`` waits for them; a durable write, an
    /// ``update(forKey:_:)`` or a ``batch(_:)`` takes them with it. While changes wait, on iOS,
    /// tvOS, watchOS and visionOS the process asks for background time
    /// (`ProcessInfo.performExpiringActivity`), so they are written when the app leaves the
    /// foreground. A process that exits first loses them, never the file.
    ///
    /// From inside the `update` or `batch` body of a store that holds a lock across it (this
    /// one or another file or suite) it writes durably, as ``setValue(_:forKey:)`` does there
    /// (from this store's own body it throws ``StorageError/Code/reentrantWrite``).
    ///
    /// - Throws: What the file could never hold, at once: ``StorageError/Code/invalidKey``,
    ///   ``StorageError/Code/tooLarge`` for a value larger than ``Options/maximumFileSize``
    ///   alone, ``StorageError/Code/encodingFailed`` for a value the format cannot store. A
    ///   failure of the background write goes to ``StorageErrorReporter`` (to the handler bound
    ///   where the run's first change was made, else the process's); the change stays in memory
    ///   and is written by the next write or ``flush()``.
    ///
    /// Thread-safety: may be called from any thread; it takes only locks of this process that
    /// no write holds while it waits.
    public func setValueInBackground(_ value: StoredValue?, forKey key: String) throws {
        guard !UpdateScope.isInsideUpdateBody else {
            try StorageError.validate(key: key, location: path)
            return try commitInGroup(value, forKey: key)
        }
        do {
            try setBehind(value, forKey: key)
        } catch let error as StorageError {
            throw error.adding(key: key, location: path)
        }
    }

    /// Reads, changes and writes the value as one step, atomic across threads and processes,
    /// writing the file before returning.
    ///
    /// `body` runs while this store holds the file's lock, with the value currently in the
    /// file: keep it short. It may read this store; a write from inside it to this store, or
    /// to another store of this process on the same file, throws
    /// ``StorageError/Code/reentrantWrite`` instead of waiting for the lock it holds. It may run
    /// more than once: when the lock file was deleted or the file replaced by another writer
    /// during the write, the write starts over on the file's new contents; only the last run is
    /// written.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or what ``setValue(_:forKey:)`` throws, or
    ///   ``StorageError/Code/reentrantWrite`` when called from inside an update body of the same
    ///   file; nothing changes then.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try StorageError.validate(key: key, location: path)
        do {
            return try commit(key: key) { values in
                // First: `values[key]` would find a canonically equivalent key of other scalars,
                // and a write (or removal) would then change that one.
                try checkNoCanonicallyEquivalentKey(key, in: values)
                var value = values[key]
                let result = try body(&value)
                let changed = !values[key].isIdentical(to: value)
                guard changed else { return (result, []) }
                values[key] = value
                return (result, [key])
            }
        } catch let error as StorageError {
            throw error.adding(key: key, location: path)
        }
    }

    /// Every change committed from now on, in order, each once: this store's writes and the
    /// changes it finds in the file.
    public func changes() -> AsyncStream<StoredChange> {
        storage.changes()
    }
}
