import Foundation

/// Which stores have an `update` body running on the current thread, so that a write to a
/// store from inside its own `update` body throws ``StorageError/Code/reentrantWrite`` instead
/// of waiting for the lock the body holds, or being overwritten by the update's result.
///
/// A store names what it guards with a string (``medium(_:)``, or a file's path); its `update`
/// runs the body through ``runBody(ofUpdateOn:key:_:)``, and every write calls
/// ``checkOutsideUpdateBody(of:)`` before taking its lock (<doc:ImplementingABackend>):
///
/// ```swift
/// let medium = UpdateScope.medium(self)
/// // In setValue and update, before taking the lock:
/// try UpdateScope.checkOutsideUpdateBody(of: [medium])
/// // In update, with the lock held:
/// let result = try UpdateScope.runBody(ofUpdateOn: [medium], key: key) { try body(&value) }
/// ```
///
/// The mark is per thread, not task-local: the synchronous body runs on one thread, and tasks
/// it starts, which would inherit a task-local value, may write once the update returns.
public enum UpdateScope {
    /// The media whose `update` body runs on this thread, each with the key being updated, in
    /// the order the bodies started (innermost last).
    ///
    /// A POSIX thread-specific value (`pthread_getspecific`), so only its own thread touches
    /// it; made by the thread's first update and released when the thread ends.
    private final class Marks {
        // Safe unchecked: only its own thread touches it, one read or append at a time.
        @exclusivity(unchecked)
        var entries: [(medium: String, key: String)] = []
        /// How many of `entries` are counted by ``isInsideUpdateBody``.
        @exclusivity(unchecked)
        var countedEntries = 0
        /// Observers' calls kept until the outermost body returns (see ``deliver(_:)``).
        @exclusivity(unchecked)
        var announcements = ChangeBroadcaster.Announcements()
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        // Runs when a thread that marked an update ends, with the value it left (never nil).
        pthread_key_create(&key) { value in
            #if canImport(Darwin)
            Unmanaged<AnyObject>.fromOpaque(value).release()
            #else
            if let value { Unmanaged<AnyObject>.fromOpaque(value).release() }
            #endif
        }
        return key
    }()

    /// The marks of this thread, if it ever ran an update body.
    private static var currentMarks: Marks? {
        pthread_getspecific(threadKey).map { Unmanaged<Marks>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Runs `body`, an `update` body for `key`, with `media` marked as being updated on this
    /// thread; the marks are removed when it returns or throws.
    ///
    /// - Parameters:
    ///   - media: The names of what the store guards (``medium(_:)``, or a file's path, so that
    ///     two instances on one file refuse each other's writes).
    ///   - key: The key being updated, named in the refusal; `nil` for an update of no one key.
    ///   - body: The `update` body, run once on this thread.
    public static func runBody<R>(ofUpdateOn media: [String], key: String?, _ body: () throws -> R) rethrows -> R {
        try run(body, marking: media, key: key, counted: true)
    }

    /// ``runBody(ofUpdateOn:key:_:)`` with marks that ``isInsideUpdateBody`` does not count: for
    /// a body that holds no lock a file's writers wait on (an in-memory update, a group leader).
    static func runMarked<R>(_ media: [String], key: String?, _ body: () throws -> R) rethrows -> R {
        try run(body, marking: media, key: key, counted: false)
    }

    private static func run<R>(_ body: () throws -> R, marking media: [String], key: String?, counted: Bool) rethrows
        -> R
    {
        let marks: Marks
        if let current = currentMarks {
            marks = current
        } else {
            marks = Marks()
            pthread_setspecific(threadKey, Unmanaged.passRetained(marks).toOpaque())
        }
        let depth = marks.entries.count
        for medium in media { marks.entries.append((medium, key ?? "")) }
        if counted { marks.countedEntries += media.count }
        defer {
            while marks.entries.count > depth { marks.entries.removeLast() }
            if counted { marks.countedEntries -= media.count }
            if depth == 0, !marks.announcements.isEmpty {
                let announcements = marks.announcements
                marks.announcements = ChangeBroadcaster.Announcements()
                announcements.deliver()
            }
        }
        return try body()
    }

    /// Runs `body`, which takes a store's write lock, with observers' calls kept until the
    /// outermost such region or `update` body of this thread ends (see
    /// ``deliverOutsideUpdateBodies(_:)``).
    static func holdingAnnouncements<R>(_ body: () throws -> R) rethrows -> R {
        try run(body, marking: ["a store's write lock"], key: nil, counted: false)
    }

    /// Makes the observers' calls now, or once the outermost write lock or `update` body of this
    /// thread ends: an observer may write the store whose lock is held.
    static func deliverOutsideUpdateBodies(_ announcements: ChangeBroadcaster.Announcements) {
        if let marks = currentMarks, !marks.entries.isEmpty {
            marks.announcements.append(contentsOf: announcements)
        } else {
            announcements.makeCalls()
        }
    }

    /// Whether an `update` body of one of `media` is running on this thread.
    static func isInsideUpdateBody(of media: [String]) -> Bool {
        guard let marks = currentMarks, !marks.entries.isEmpty else { return false }
        return media.contains { medium in marks.entries.contains { $0.medium == medium } }
    }

    /// Throws when an `update` body of one of `media` is running on this thread.
    ///
    /// - Throws: ``StorageError/Code/reentrantWrite`` without key or path (the store adds
    ///   them), saying which key's update is running.
    public static func checkOutsideUpdateBody(of media: [String]) throws {
        guard let marks = currentMarks, !marks.entries.isEmpty else { return }
        for medium in media {
            guard let outer = marks.entries.last(where: { $0.medium == medium })?.key else { continue }
            throw reentrantWriteError(updating: outer)
        }
    }

    /// The ``StorageError/Code/reentrantWrite`` error of a write made from inside the update
    /// of `outer` (empty: of no one key) in the same store, without key or path.
    private static func reentrantWriteError(updating outer: String) -> StorageError {
        let running = outer.isEmpty ? "an update of the same store" : "the update of '\(outer)' in the same store"
        return StorageError(
            .reentrantWrite,
            message:
                "written from inside \(running), which would wait for itself; change the value through the update's inout parameter, or write after the update returns"
        )
    }

    /// Whether an `update` body marked with ``runBody(ofUpdateOn:key:_:)`` (of a store that holds
    /// its writers' lock across it: a file, a suite, an etcd prefix) runs on this thread.
    static var isInsideUpdateBody: Bool { (currentMarks?.countedEntries ?? 0) > 0 }

    /// A medium name for a store guarded by an object's identity (a lock, a dictionary): the
    /// object's address in hexadecimal, unique while the object lives.
    public static func medium(_ object: AnyObject) -> String {
        "object " + String(UInt(bitPattern: ObjectIdentifier(object)), radix: 16)
    }
}
