import Foundation

/// Which stores have an `update` body running on the current thread: how `FileStore`,
/// `UserDefaultsStore` and a backend of your own refuse a write to a store from inside that
/// store's own `update` body.
///
/// Such a write cannot work: `FileStore` holds its lock and the file's `flock` while the body
/// runs, so the write would wait for itself forever (and abort the process on Apple platforms,
/// where the lock is `os_unfair_lock`); a store with a re-entrant lock would let the write land
/// and then overwrite it with the update's result, losing it silently. Instead the write throws
/// ``StorageError/Code/reentrantWrite``.
///
/// A store names the medium it guards with a string (the lock file's path for a file, an object
/// identity for memory): ``runBody(ofUpdateOn:key:_:)`` marks those names for the thread while
/// the body runs, and every write entry point calls ``checkOutsideUpdateBody(of:)`` before it
/// takes a lock. Every shipped store refuses such writes this way.
///
/// A backend of your own whose `update` holds a lock while its body runs does the same:
///
/// ```swift
/// let medium = UpdateScope.medium(self)
/// // In setValue and update, before taking the lock:
/// try UpdateScope.checkOutsideUpdateBody(of: [medium])
/// // In update, with the lock held:
/// let result = try UpdateScope.runBody(ofUpdateOn: [medium], key: key) { try body(&value) }
/// ```
///
/// The mark is per thread, not a task-local value: an `update` body is synchronous, so it runs
/// from start to end on the thread that called `update`, and only that thread can re-enter. A
/// task-local value would be inherited by tasks the body creates, which may write legitimately
/// once the update has returned.
public enum UpdateScope {
    /// The media whose `update` body runs on this thread, each with the key being updated, in
    /// the order the bodies started (innermost last).
    ///
    /// Reached through a POSIX thread-specific value (`pthread_getspecific`), so it is only ever
    /// touched by its own thread. It is created by the thread's first update and kept until the
    /// thread ends, when the key's destructor releases it: an update then costs no allocation
    /// (marking is an append to an array that keeps its capacity), and a write outside any
    /// update costs one `pthread_getspecific` call and an emptiness check.
    private final class Marks {
        // Only its own thread touches it, and never with two accesses overlapping (each is a
        // single read or append): the runtime's exclusivity check would only add cost.
        @exclusivity(unchecked)
        var entries: [(medium: String, key: String, counted: Bool)] = []
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

    /// ``runBody(ofUpdateOn:key:_:)`` with marks that ``isInsideUpdateBody`` does not count:
    /// for a body that holds no lock a file's writers wait on (an in-memory store's update, a
    /// group commit's leader), so that a write-behind or grouped write it makes to a file goes
    /// on as from anywhere else.
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
        for medium in media { marks.entries.append((medium, key ?? "", counted)) }
        defer {
            while marks.entries.count > depth { marks.entries.removeLast() }
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

    /// Makes the observers' calls now, or, on a thread that holds a store's write lock or runs
    /// an `update` body (``holdingAnnouncements(_:)``, ``runBody(ofUpdateOn:key:_:)``), once
    /// the outermost of those ends: an observer may write the store whose lock is held, which
    /// would wait for itself.
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
    static var isInsideUpdateBody: Bool { currentMarks.map { $0.entries.contains { $0.counted } } ?? false }

    /// A medium name for a store guarded by an object's identity (a lock, a dictionary): the
    /// object's address in hexadecimal, unique while the object lives.
    public static func medium(_ object: AnyObject) -> String {
        "object " + String(UInt(bitPattern: ObjectIdentifier(object)), radix: 16)
    }
}
