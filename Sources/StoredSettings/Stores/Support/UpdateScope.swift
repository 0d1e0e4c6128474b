import Foundation

/// Which stores have an `update` body running on the current thread: the one mechanism every
/// backend uses to refuse a write to a store from inside that store's own `update` body.
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
/// takes a lock.
///
/// The mark is per thread, not a task-local value: an `update` body is synchronous, so it runs
/// from start to end on the thread that called `update`, and only that thread can re-enter. A
/// task-local value would be inherited by tasks the body creates, which may write legitimately
/// once the update has returned.
package enum UpdateScope {
    /// The media whose `update` body runs on this thread, each with the key being updated.
    ///
    /// Reached through a POSIX thread-specific value (`pthread_getspecific`), so it is only ever
    /// touched by its own thread. It exists only while a body runs: the outermost
    /// ``runBody(ofUpdateOn:key:_:)`` creates it and removes it, so no destructor is needed
    /// (a thread cannot end inside a synchronous body) and a write outside any update costs one
    /// `pthread_getspecific` call.
    private final class Marks {
        var keys: [String: String] = [:]
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The marks of this thread, if an update body runs on it.
    private static var currentMarks: Marks? {
        pthread_getspecific(threadKey).map { Unmanaged<Marks>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Runs `body`, an `update` body for `key`, with `media` marked as being updated on this
    /// thread; the marks are removed when it returns or throws (an outer mark of the same
    /// medium is restored).
    package static func runBody<R>(ofUpdateOn media: [String], key: String?, _ body: () throws -> R) rethrows -> R {
        let outermost = currentMarks == nil
        let marks = currentMarks ?? Marks()
        if outermost { pthread_setspecific(threadKey, Unmanaged.passRetained(marks).toOpaque()) }
        let previous = media.map { marks.keys[$0] }
        for medium in media { marks.keys[medium] = key ?? "" }
        defer {
            for (medium, key) in zip(media, previous) { marks.keys[medium] = key }
            if outermost {
                pthread_setspecific(threadKey, nil)
                Unmanaged.passUnretained(marks).release()
            }
        }
        return try body()
    }

    /// Throws when an `update` body of one of `media` is running on this thread.
    ///
    /// - Throws: ``StorageError/Code/reentrantWrite`` without key or path (the store adds
    ///   them), saying which key's update is running.
    package static func checkOutsideUpdateBody(of media: [String]) throws {
        guard let marks = currentMarks else { return }
        for medium in media {
            guard let outer = marks.keys[medium] else { continue }
            let running = outer.isEmpty ? "an update of the same store" : "the update of '\(outer)' in the same store"
            throw StorageError(
                .reentrantWrite,
                message:
                    "written from inside \(running), which would wait for itself; change the value through the update's inout parameter, or write after the update returns"
            )
        }
    }

    /// Whether an `update` body of any store runs on this thread: one `pthread_getspecific`.
    package static var isInsideUpdateBody: Bool { currentMarks != nil }

    /// A medium name for a store guarded by an object's identity (a lock, a dictionary).
    package static func medium(_ object: AnyObject) -> String {
        String(describing: ObjectIdentifier(object))
    }
}
