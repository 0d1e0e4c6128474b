public import Foundation

/// A store that keeps settings in one JSON or property-list file: the backend for
/// command-line tools, and for apps that want a file they control.
///
/// ```swift
/// let store = try FileStore(url: URL(fileURLWithPath: "settings.json"))
/// try store.setValue(.bool(true), forKey: "autoReload")
/// ```
///
/// Every write is atomic and durable when it returns, and safe across processes: under a
/// `flock` on `settings.json.lock` it re-reads a file another process changed and applies only
/// its own keys. Changes made elsewhere are seen from the platform's file events and delivered
/// through ``changes()``. A file that does not parse is never written over. New files are 0600.
/// <doc:ConfigurationFiles> explains each guarantee and its limits.
///
/// Thread-safety: every member may be used from any thread or task. Reads are a locked
/// dictionary lookup and never touch the disk; ``setValue(_:forKey:)`` calls waiting on one
/// another share one write (group commit).
public final class FileStore: Storable {
    /// The file format of a ``FileStore``.
    public enum Format: Sendable, Equatable {
        /// JSON text, pretty-printed with sorted keys.
        case json
        /// A property list: XML for new files; an existing binary property list stays binary.
        case propertyList

        /// The format for a file name: `propertyList` for `.plist`, `json` otherwise.
        package init(pathExtension: String) {
            self = pathExtension.lowercased() == "plist" ? .propertyList : .json
        }

        /// ``init(pathExtension:)`` for `path`'s extension as `URL.pathExtension` reads it,
        /// without building a URL.
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
    /// ``url``'s absolute path, worked out once (`URL.path` builds a new string per call).
    let path: String
    /// The options the store was opened with.
    public let options: Options

    /// What the store keeps in memory, values to subscribers: the one lock its reads, setters
    /// and commits take (``Memory``).
    let memory: Lock<Memory>
    /// The file's state; held by a write or reload across its disk work (the `flock` wait, the
    /// `fsync`s), so it serializes them. Taken before ``memory``, never while holding it.
    let file: Lock<FileState>
    /// This store's name in ``UpdateScope`` marks: the identity of ``file``, worked out once.
    let medium: String
    /// The mark of a group commit's leader in ``UpdateScope``.
    let groupMedia: [String]
    let watcher = Lock<FileWatcher?>(nil)
    /// How many `setValue` calls wait to join the next group (for tests).
    package let queuedWrites = AwaitableState(0)
    /// The background writer of ``Memory/pending``: runs queue up, so writes never overlap and
    /// later ones coalesce.
    let writer = DispatchQueue(label: "StoredSettings write-behind")

    /// The versions of the file a change check knows for this store's own, readable without
    /// waiting for a write in progress (which holds ``file`` through its `flock` wait and `fsync`s).
    struct Versions: Sendable {
        /// A copy of ``FileState/fingerprint``.
        var loaded: FileFingerprint?
        /// The version this store's write is renaming into place, so the check its `rename`
        /// wakes knows it for its own without waiting for the write; `nil` between writes.
        var writing: FileFingerprint?
        /// How many times ``checkForExternalChange()`` ran, for tests of the watcher.
        var checkCount = 0
        /// A copy of ``FileState/encoding``, for the write-behind setter, which never waits.
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
            didSet { memory.withLock { $0.versions.loaded = fingerprint } }
        }
        /// The store's ``FileStore/memory``, whose versions hold a copy of ``fingerprint``.
        let memory: Lock<Memory>
        /// The encoding a property-list file is rewritten in.
        var encoding: PropertyListValue.FileEncoding = .xml {
            didSet { memory.withLock { $0.versions.encoding = encoding } }
        }
        /// A JSON file's text for each key as last read, so a write keeps unchanged keys as
        /// the file spelled them.
        var source = StoredValueJSON.SourceText()
        /// The cross-process lock, opened on first use.
        var lock: FileLock?
        /// A version that did not parse and was reported already, so it is not reported again.
        var reportedBadFingerprint: FileFingerprint?
        /// The last path error the change check reported (a link refused), so it is not
        /// reported again.
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
    /// A missing or empty file is an empty store; the file and its missing folders (mode 0700)
    /// are created on the first write. Opening never waits for another process's write, except
    /// to move a corrupt file aside (``CorruptFilePolicy/moveAside``). A group- or
    /// world-writable file is reported to ``StorageErrorReporter`` as
    /// ``StorageError/Code/insecurePermissions``.
    ///
    /// - Parameters:
    ///   - url: A file URL, possibly a symbolic link. A relative URL is made absolute now, against
    ///     its base or the current folder; `..` is left for the kernel to resolve.
    ///   - format: The file format; by default `.plist` is a property list, anything else JSON.
    ///   - options: Size limit, corrupt-file policy and change checking; see ``Options``.
    /// - Throws: ``StorageError/Code/dataCorrupted`` when the file does not parse (with line and
    ///   column where known) or its root is not an object; ``StorageError/Code/nestingTooDeep``
    ///   beyond 64 levels; ``StorageError/Code/tooLarge`` beyond ``Options/maximumFileSize``
    ///   (checked before reading); ``StorageError/Code/io`` when it cannot be read (a special
    ///   file, no free descriptor, a link `fs.protected_symlinks` refuses). The file is left
    ///   untouched unless the policy is ``CorruptFilePolicy/moveAside``.
    public init(url: URL, format: Format? = nil, options: Options = Options()) throws {
        path = Self.absolutePath(of: url)
        // Such a URL already names the file as `path` does. `isDirectory: false` spares an `lstat`.
        let isAbsoluteFileURL = url.isFileURL && url.baseURL == nil && !url.hasDirectoryPath
        self.url = isAbsoluteFileURL ? url : URL(fileURLWithPath: path, isDirectory: false)
        let format = format ?? Format(path: path)
        self.format = format
        self.options = options
        let memory = Lock(Memory(values: [:]))
        self.memory = memory
        var state = FileState(memory: memory)
        var reports: [StorageError] = []
        let values = try Self.open(
            path: path, format: format, options: options, state: &state, reports: &reports)
        memory.withLock { $0.values = values }
        file = Lock(state)
        medium = UpdateScope.medium(file)
        groupMedia = ["group commit " + medium]
        options.afterOpeningForTesting?.body()
        if let interval = options.changeCheckInterval {
            // Off the caller's thread and later: placing watches can take the kernel milliseconds,
            // which no read needs, and a store released sooner is never watched.
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
        // A write between the open's read and the watch sent no event the watch saw: look again.
        checkForExternalChange(counted: false)
    }

    /// Opens `settings.json` of `application` in the user's configuration folder.
    ///
    /// Command-line tools and Linux follow the XDG rules:
    /// `$XDG_CONFIG_HOME/<application>/settings.json`, else `$HOME/.config/…`, else under the
    /// password database's home folder. Apps on Apple platforms use their container's
    /// Application Support folder (Caches on tvOS). <doc:PlatformNotes> lists the folders.
    ///
    /// - Parameters:
    ///   - application: The application's name: the folder under the configuration folder.
    ///   - options: See ``Options``.
    /// - Throws: ``StorageError/Code/invalidKey`` for an application name that is empty, `.`,
    ///   contains `/`, `..` or control characters, or starts with `-`; ``StorageError/Code/io``
    ///   when no home or container folder is found; ``StorageError/Code/dataCorrupted`` when the
    ///   variable that names the folder is not valid UTF-8; otherwise what
    ///   ``init(url:format:options:)`` throws.
    public convenience init(application: String, options: Options = Options()) throws {
        let (environment, notUTF8) = ProcessEnvironment.variables(named: ["XDG_CONFIG_HOME", "HOME"])
        let url = try Self.defaultURL(application: application, environment: environment, notUTF8: notUTF8)
        try self.init(url: url, options: options)
    }

    deinit {
        watcher.withLock { $0?.cancel() }
        for continuation in memory.withLock({ $0.subscribers.all }) { continuation.finish() }
    }

    /// The path of the file, for error messages; followed by ` (write-behind)` in
    /// ``WriteMode/writeBehind`` mode, so that no message passes such a store for a durable one.
    public var location: String? { options.writeMode == .durable ? path : path + " (write-behind)" }

    /// The value stored under `key`, from memory.
    ///
    /// - Complexity: O(1): a dictionary lookup under a lock; it never touches the disk.
    public func value(forKey key: String) -> StoredValue? {
        memory.withLock { $0.values[key] }
    }

    /// The value and the store's revision, from memory. The revision grows with every change,
    /// whether written by this store or loaded from the file.
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        memory.withLock { ($0.values[key], $0.revision) }
    }

    /// Every key in the file, as of the last write or check for changes.
    public func keys() -> [String] {
        memory.withLock { Array($0.values.keys) }
    }

    /// Stores `value` under `key` (removes the key for `nil`) and writes the file before
    /// returning; in ``WriteMode/writeBehind`` mode, returns once the value is in memory and
    /// leaves the write to the store's background writer (``flush()`` waits for it).
    ///
    /// Under the cross-process lock, the file is re-read first if another process changed it;
    /// only `key` is changed. Calls waiting on another thread's write share the next one (group
    /// commit, <doc:ConfigurationFiles>); a failure of that shared write fails them all.
    ///
    /// - Throws: ``StorageError/Code/invalidKey``; ``StorageError/Code/encodingFailed`` (NaN in
    ///   JSON, a character XML 1.0 cannot hold); ``StorageError/Code/tooLarge`` beyond
    ///   ``Options/maximumFileSize``; ``StorageError/Code/io`` naming the path and the `errno`
    ///   text; ``StorageError/Code/insecurePermissions`` when another user could redirect the
    ///   write; ``StorageError/Code/dataCorrupted`` when another program left a file that does
    ///   not parse, or emptied one that held settings, and it did not settle within about half a
    ///   second. The file and memory keep the previous value then.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        if options.writeMode == .writeBehind { return try setValueInBackground(value, forKey: key) }
        try StorageError.validate(key: key, location: path)
        try commitInGroup(value, forKey: key)
    }

    /// Stores `value` under `key` in memory and leaves the file to the store's background
    /// writer, in either ``WriteMode``: what a setter on an app's main thread calls, since it
    /// never waits for another process's `flock`, a file to settle or an `fsync`.
    ///
    /// The change is visible to readers, ``changes()`` and observers before this returns; the
    /// writer later writes the changes made meanwhile as one atomic, durable file. ``flush()``
    /// waits for them. A process that exits first loses them, never the file. Inside an `update`
    /// or `batch` body of a store that holds a lock across it, it writes durably.
    /// <doc:PlatformNotes> says more.
    ///
    /// - Throws: At once, what the file could never hold: ``StorageError/Code/invalidKey``,
    ///   ``StorageError/Code/tooLarge``, ``StorageError/Code/encodingFailed``. A failure of the
    ///   background write goes to ``StorageErrorReporter`` (the handler bound where the run's
    ///   first change was made), and the change stays pending.
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
    /// `body` runs under the file's lock, with the value currently in the file: keep it short.
    /// It may read this store; a write from it to the same file throws
    /// ``StorageError/Code/reentrantWrite``. It may run more than once (when another writer got
    /// in, say after the lock file was deleted); only the last run is written.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or what ``setValue(_:forKey:)`` throws, or
    ///   ``StorageError/Code/reentrantWrite`` when called from inside an update body of the same
    ///   file; nothing changes then.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        try StorageError.validate(key: key, location: path)
        do {
            return try commit(key: key) { values in
                // First: `values[key]` would find a canonically equivalent key and change that one.
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
        subscribe(readingValueForKey: nil).stream
    }
}
