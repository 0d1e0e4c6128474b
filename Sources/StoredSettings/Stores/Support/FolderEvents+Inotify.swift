#if os(Linux) || os(Android)
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells ``FileStore``s that something changed in the folders of their files, from one
/// `inotify` descriptor for the whole process (Linux).
///
/// Each store's folder is watched for entries created, deleted, renamed into or out of it,
/// closed after writing and changed in their attributes (`IN_CREATE`, `IN_DELETE`,
/// `IN_MOVED_TO`, `IN_MOVED_FROM`, `IN_CLOSE_WRITE`, `IN_ATTRIB`), so a replacement by `rename`
/// and an in-place save are both seen: the save when its writer closes the file (`IN_MODIFY`,
/// one event per `write` call, is not watched, so a half-written file is not read for every
/// chunk). A folder that does not exist yet (the first write creates it), or that was deleted
/// or moved away, is replaced by its deepest existing ancestor until it appears again; an
/// overflowing event queue (`IN_Q_OVERFLOW`) makes every store check its file.
///
/// One thread per process waits in `read` on the descriptor; with nothing changing it never
/// wakes. The descriptor is opened with `IN_CLOEXEC`, so child processes do not inherit it,
/// and lazily, so a process that has no descriptor free when its first store opens gets
/// `nil` from ``add(fileAt:handler:)`` and its stores fall back to polling.
///
/// Thread-safety: every member may be called from any thread; the state is behind a lock,
/// and handlers run on the event thread with no lock of this type held.
package final class FolderEvents: Sendable {
    /// The event source of the process.
    package static let shared = FolderEvents()

    /// A handle to one registration, for ``remove(_:)``.
    package struct Registration: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct Entry {
        /// The folder the registration is about.
        let folder: String
        /// The watch it is on: the folder's, or an ancestor's while the folder is missing.
        var descriptor: Int32
        var watchesAncestor: Bool
        let handler: @Sendable () -> Void
        /// While no watch can be had for it: the `stat` check that stands in, every
        /// ``FolderEvents/pollingInterval``, until a watch succeeds again.
        var polling: ChangeCheckScheduler.Entry?
    }

    private struct State {
        var inotify: Int32 = -1
        var entries: [UInt64: Entry] = [:]
        var entriesByWatch: [Int32: Set<UInt64>] = [:]
        var nextID: UInt64 = 0
        /// Folders whose watches fail as if the watch limit were reached, for tests.
        var refusedFolders: Set<String> = []
    }

    /// How often a registration whose folder cannot be watched any more (the watch limit
    /// reached after its folder was deleted and made again) is checked instead, and tried again.
    static let pollingInterval: UInt64 = 250_000_000

    private static let mask =
        UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM)
        | UInt32(IN_CLOSE_WRITE) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
        | UInt32(IN_ONLYDIR)

    private let state = Lock(State())

    private init() {}

    /// Calls `handler` on the event thread whenever the file at `path` may have changed: an
    /// entry of its folder changed, the folder appeared or went, or events were lost; until
    /// ``remove(_:)``.
    ///
    /// - Returns: `nil` when no event source can be had: no descriptor free for `inotify`, or
    ///   the per-user watch limit (`fs.inotify.max_user_watches`) reached.
    package func add(fileAt path: String, handler: @escaping @Sendable () -> Void) -> Registration? {
        let folder = (path as NSString).deletingLastPathComponent
        let (registration, startThread) = state.withLock { state -> (Registration?, Bool) in
            var startThread = false
            if state.inotify < 0 {
                let fd = inotify_init1(Int32(IN_CLOEXEC))
                guard fd >= 0 else { return (nil, false) }
                state.inotify = fd
                startThread = true
            }
            guard let (descriptor, ancestor) = Self.watch(folder, in: state) else {
                return (nil, startThread)
            }
            state.nextID += 1
            state.entries[state.nextID] = Entry(
                folder: folder, descriptor: descriptor, watchesAncestor: ancestor, handler: handler)
            state.entriesByWatch[descriptor, default: []].insert(state.nextID)
            return (Registration(id: state.nextID), startThread)
        }
        if startThread {
            let fd = state.withLock { $0.inotify }
            let thread = Thread { [self] in run(fd) }
            thread.name = "StoredSettings folder events"
            thread.start()
        }
        return registration
    }

    /// Stops calling the registration's handler; a call in progress finishes.
    package func remove(_ registration: Registration) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: registration.id) else { return }
            if let polling = entry.polling { ChangeCheckScheduler.shared.remove(polling) }
            Self.detach(registration.id, from: entry.descriptor, in: &state)
        }
    }

    /// Watches `folder`, or its deepest existing ancestor; `nil` when not even that works.
    private static func watch(_ folder: String, in state: State) -> (descriptor: Int32, ancestor: Bool)? {
        if state.refusedFolders.contains(folder) { return nil }
        var path = folder.isEmpty ? "." : folder
        var restarts = 0
        while true {
            let descriptor = inotify_add_watch(state.inotify, path, mask)
            if descriptor >= 0 {
                guard path != folder else { return (descriptor, false) }
                // The folder below `path` may have been made between its failed watch and this
                // one: its creation then reached no watch, and neither will anything made in
                // it. Start again from the folder itself when that folder exists now (a few
                // times at most, for folders made and removed again and again).
                if restarts < 8, Self.childFolderExists(of: path, toward: folder) {
                    if state.entriesByWatch[descriptor] == nil { _ = inotify_rm_watch(state.inotify, descriptor) }
                    restarts += 1
                    path = folder
                    continue
                }
                return (descriptor, true)
            }
            guard errno == ENOENT || errno == ENOTDIR, path != "/", path != "." else { return nil }
            path = (path as NSString).deletingLastPathComponent
            if path.isEmpty { path = "." }
        }
    }

    /// Whether the folder one level below `ancestor` on the way to `folder` exists (a folder,
    /// by `stat`, so a file in the way does not count).
    private static func childFolderExists(of ancestor: String, toward folder: String) -> Bool {
        var child = folder
        while true {
            let parent = (child as NSString).deletingLastPathComponent
            if parent == ancestor || (ancestor == "." && !child.contains("/")) { break }
            if parent.isEmpty || parent == child { return false }
            child = parent
        }
        var info = stat()
        return stat(child, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    private static func detach(_ id: UInt64, from descriptor: Int32, in state: inout State) {
        state.entriesByWatch[descriptor]?.remove(id)
        if state.entriesByWatch[descriptor]?.isEmpty == true {
            state.entriesByWatch[descriptor] = nil
            _ = inotify_rm_watch(state.inotify, descriptor)
        }
    }

    private func run(_ inotify: Int32) {
        // Room for many events at once; each is a 16-byte header and a padded name.
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let count = read(inotify, buffer, capacity)
            if count < 0 {
                if errno == EINTR { continue }
                return
            }
            var overflow = false
            var gone = Set<Int32>()
            var touched = Set<Int32>()
            var offset = 0
            while offset + 16 <= count {
                let descriptor = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let flags = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let nameLength = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                offset += 16 + nameLength
                if flags & UInt32(IN_Q_OVERFLOW) != 0 { overflow = true }
                if flags & (UInt32(IN_IGNORED) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0 {
                    gone.insert(descriptor)
                }
                touched.insert(descriptor)
            }
            let handlers = state.withLock { state in
                Self.handlers(touched: touched, gone: gone, overflow: overflow, in: &state)
            }
            for handler in handlers { handler() }
        }
    }

    /// The handlers to call for one batch of events; moves registrations whose watch went
    /// away or was on an ancestor to the deepest folder that exists now.
    private static func handlers(touched: Set<Int32>, gone: Set<Int32>, overflow: Bool, in state: inout State)
        -> [@Sendable () -> Void]
    {
        let ids = overflow ? Set(state.entries.keys) : Set(touched.flatMap { state.entriesByWatch[$0] ?? [] })
        for descriptor in gone {
            guard let ids = state.entriesByWatch.removeValue(forKey: descriptor) else { continue }
            for id in ids { state.entries[id]?.descriptor = -1 }
            // After `IN_IGNORED` the kernel has dropped the watch already, and this fails
            // harmlessly (`EINVAL`); after `IN_MOVE_SELF` it still watches the moved folder.
            _ = inotify_rm_watch(state.inotify, descriptor)
        }
        var handlers: [@Sendable () -> Void] = []
        for id in ids.sorted() {
            guard var entry = state.entries[id] else { continue }
            if entry.descriptor < 0 || entry.watchesAncestor || overflow {
                if entry.descriptor >= 0 { detach(id, from: entry.descriptor, in: &state) }
                if let (descriptor, ancestor) = watch(entry.folder, in: state) {
                    entry.descriptor = descriptor
                    entry.watchesAncestor = ancestor
                    state.entriesByWatch[descriptor, default: []].insert(id)
                } else {
                    // Not even the root can be watched (the watch limit was reached): the
                    // file is checked by polling until a watch can be had again.
                    entry.descriptor = -1
                    if entry.polling == nil {
                        entry.polling = ChangeCheckScheduler.shared.add(everyNanoseconds: pollingInterval) {
                            FolderEvents.shared.pollWithoutWatch(id)
                        }
                    }
                }
                state.entries[id] = entry
            }
            handlers.append(entry.handler)
        }
        return handlers
    }

    /// One polling check of a registration that has no watch: tries to watch its folder again
    /// (and stops polling when that works), then calls its handler.
    private func pollWithoutWatch(_ id: UInt64) {
        let handler = state.withLock { state -> (@Sendable () -> Void)? in
            guard var entry = state.entries[id] else { return nil }
            if entry.descriptor < 0, let (descriptor, ancestor) = Self.watch(entry.folder, in: state) {
                entry.descriptor = descriptor
                entry.watchesAncestor = ancestor
                state.entriesByWatch[descriptor, default: []].insert(id)
                if let polling = entry.polling { ChangeCheckScheduler.shared.remove(polling) }
                entry.polling = nil
                state.entries[id] = entry
            }
            return entry.handler
        }
        handler?()
    }

    /// Makes watches of `folder` fail (or succeed again) as when the system's watch limit is
    /// reached, for tests of the fallback to polling.
    package func refuseWatches(of folder: String, _ refused: Bool) {
        state.withLock { state in
            if refused { state.refusedFolders.insert(folder) } else { state.refusedFolders.remove(folder) }
        }
    }

    /// How many folders (or ancestors) are watched now, for tests.
    package var watchCount: Int {
        state.withLock { $0.entriesByWatch.count }
    }
}
#endif
