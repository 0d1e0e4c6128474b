#if os(Linux) || os(Android)
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Tells ``FileStore``s that their files may have changed, from one `inotify` descriptor per
/// process (Linux); <doc:ConfigurationFiles> says what is watched and when the path is walked
/// again. Not `IN_MODIFY`, so a half-written file is not read per chunk. Thread-safe: the state is
/// behind a lock, and handlers run on the event thread with no lock of this type held.
package final class FolderEvents: Sendable {
    /// The event source of the process.
    package static let shared = FolderEvents()

    /// A handle to one registration, for ``remove(_:)``.
    struct Registration: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    /// One folder on the way to a file, as watched: the entry `name` in it leads to the file.
    private struct Step: Hashable {
        let descriptor: Int32
        let name: String
        /// Whether it is the file's own folder, where any change may be a change of the file.
        let isFileFolder: Bool
    }

    private struct Entry {
        /// The file the registration is about.
        let path: String
        var steps: Set<Step> = []
        let handler: @Sendable () -> Void
        /// While a folder on the way cannot be watched: the `stat` check that stands in, every
        /// ``FolderEvents/pollingInterval``, until every watch succeeds again.
        var polling: ChangeCheckScheduler.Entry?
    }

    /// The registrations that one watched folder matters to.
    private struct Watch {
        /// Those for which any change in the folder may be a change of their file.
        var everyEvent: Set<UInt64> = []
        /// Those for which the entry of this name leads to their file.
        var byName: [String: Set<UInt64>] = [:]

        var all: Set<UInt64> { byName.values.reduce(everyEvent) { $0.union($1) } }
    }

    private struct State {
        var inotify: Int32 = -1
        var entries: [UInt64: Entry] = [:]
        var watches: [Int32: Watch] = [:]
        var nextID: UInt64 = 0
        /// Folders whose watches fail as if the watch limit were reached, for tests.
        var refusedFolders: Set<String> = []
        /// Actions run once between the next walk of a path and its watches, for tests.
        var afterNextWalk: [String: @Sendable () -> Void] = [:]
        /// How many batches of events said events were lost (`IN_Q_OVERFLOW`).
        var overflowCount = 0
    }

    /// How often a registration with a folder on its way that cannot be watched is checked
    /// instead, and its watches tried again.
    static let pollingInterval: UInt64 = 250_000_000

    private static let mask =
        UInt32(IN_CREATE) | UInt32(IN_DELETE) | UInt32(IN_MOVED_TO) | UInt32(IN_MOVED_FROM)
        | UInt32(IN_CLOSE_WRITE) | UInt32(IN_ATTRIB) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)
        | UInt32(IN_ONLYDIR)

    /// For a file mounted over the settings file (``isMountPoint(_:)``), watched itself.
    private static let fileMask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_ATTRIB)

    private let state = Lock(State())

    private init() {}

    /// Calls `handler` on the event thread whenever the file at absolute `path` may change, until
    /// ``remove(_:)``; `nil` if no descriptor is free or a folder on the way cannot be watched.
    func add(fileAt path: String, handler: @escaping @Sendable () -> Void) -> Registration? {
        let (registration, thread) = state.withLock { state -> (Registration?, (Int32, Int32)?) in
            var thread: (Int32, Int32)?
            if state.inotify < 0 {
                FileDescriptor.reserveStandardStreams()
                let fd = FileDescriptor.movedAboveStandardStreams(inotify_init1(Int32(IN_CLOEXEC)))
                guard fd >= 0 else { return (nil, nil) }
                state.inotify = fd
                thread = (fd, FileSystem.openFile("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC, 0))
            }
            state.nextID += 1
            let id = state.nextID
            state.entries[id] = Entry(path: path, handler: handler)
            guard Self.arm(id, in: &state).complete else {
                _ = Self.disarm(id, in: &state) // a new entry, not polled yet
                return (nil, thread)
            }
            return (Registration(id: id), thread)
        }
        if let (inotify, mounts) = thread {
            let thread = Thread { [self] in run(inotify, mounts: mounts) }
            thread.name = "StoredSettings folder events"
            thread.start()
        }
        return registration
    }

    /// Stops calling the registration's handler; a call in progress finishes.
    func remove(_ registration: Registration) {
        let polling = state.withLock { Self.disarm(registration.id, in: &$0) }
        if let polling { ChangeCheckScheduler.shared.remove(polling) }
    }

    /// Removes the registration `id`; returns its polling check, for the caller to remove from
    /// the scheduler once the lock is released.
    private static func disarm(_ id: UInt64, in state: inout State) -> ChangeCheckScheduler.Entry? {
        guard let entry = state.entries.removeValue(forKey: id) else { return nil }
        for step in entry.steps { detach(id, from: step, in: &state) }
        return entry.polling
    }

    /// The folders a lookup of `path` passes, in the kernel's walk order, each with the entry that
    /// leads on; a link continues at its target (at most 40, as the kernel follows before `ELOOP`).
    private static func way(to path: String) -> [Waypoint] {
        var remaining = Array(path.split(separator: "/").reversed())
        var folder = path.hasPrefix("/") ? "/" : FileManager.default.currentDirectoryPath
        var links = 0
        var way: [Waypoint] = []
        while let component = remaining.popLast() {
            if component == "." { continue }
            if component == ".." {
                folder = (folder as NSString).deletingLastPathComponent
                continue
            }
            let name = String(component)
            way.append(Waypoint(folder: folder, name: name, isFileFolder: remaining.isEmpty))
            let entry = (folder as NSString).appendingPathComponent(name)
            var info = stat()
            guard lstat(entry, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, links < 40 else {
                folder = entry
                continue
            }
            links += 1
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(entry, &buffer, buffer.count - 1)
            guard length > 0 else { break }
            let target = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if target.hasPrefix("/") { folder = "/" }
            remaining.append(contentsOf: target.split(separator: "/").reversed())
        }
        return way
    }

    /// One entry of a path's walk: `name` in `folder` leads on.
    private struct Waypoint: Equatable {
        let folder: String
        let name: String
        let isFileFolder: Bool
    }

    /// Walks the path again and moves the watches; `complete` is false when an existing folder
    /// could not be watched or the path kept changing, `changed` true when a watch moved.
    private static func arm(_ id: UInt64, in state: inout State) -> (complete: Bool, changed: Bool) {
        guard var entry = state.entries[id] else { return (true, false) }
        var walk = way(to: entry.path)
        state.afterNextWalk.removeValue(forKey: entry.path)?()
        // A link changed between the walk and its watch sent that watch no event: walk again
        // once watched, until two walks agree. A path that never settles is polled instead.
        var steps: Set<Step> = []
        var complete = false
        var placed: Set<Int32> = []
        for _ in 0..<8 {
            (steps, complete) = watch(walk, in: state)
            placed.formUnion(steps.map(\.descriptor))
            let again = way(to: entry.path)
            if again == walk { break }
            (walk, complete) = (again, false)
        }
        for step in steps.subtracting(entry.steps) {
            state.watches[step.descriptor, default: Watch()].byName[step.name, default: []].insert(id)
            if step.isFileFolder { state.watches[step.descriptor]?.everyEvent.insert(id) }
        }
        // Attached first, so a folder that stays watched under another name keeps its watch.
        for step in entry.steps.subtracting(steps) { detach(id, from: step, keeping: steps, in: &state) }
        // Watches placed for a walk that was already out of date, and needed by nobody.
        for descriptor in placed.subtracting(steps.map(\.descriptor)) where state.watches[descriptor] == nil {
            _ = inotify_rm_watch(state.inotify, descriptor)
        }
        let changed = steps != entry.steps
        entry.steps = steps
        state.entries[id] = entry
        return (complete, changed)
    }

    /// Watches every folder of `walk`, outermost first, so a folder made after its parent is
    /// watched is reported; `complete` is false when an existing folder could not be watched.
    private static func watch(_ walk: [Waypoint], in state: State) -> (steps: Set<Step>, complete: Bool) {
        var steps: Set<Step> = []
        var complete = true
        for waypoint in walk {
            let refused = state.refusedFolders.contains(waypoint.folder)
            let descriptor = refused ? -1 : inotify_add_watch(state.inotify, waypoint.folder, mask)
            if descriptor >= 0 {
                steps.insert(Step(descriptor: descriptor, name: waypoint.name, isFileFolder: waypoint.isFileFolder))
            } else if refused || (errno != ENOENT && errno != ENOTDIR) {
                complete = false
            }
        }
        // A file mounted over the settings file is also written through its other name, which
        // tells the folder here nothing.
        if let file = walk.last, file.isFileFolder {
            let path = (file.folder as NSString).appendingPathComponent(file.name)
            if isMountPoint(path) {
                let descriptor = inotify_add_watch(state.inotify, path, fileMask)
                if descriptor >= 0 {
                    steps.insert(Step(descriptor: descriptor, name: "", isFileFolder: false))
                } else if errno != ENOENT {
                    complete = false
                }
            }
        }
        return (steps, complete)
    }

    /// Takes the registration off `step`'s watch, but not off what a step in `kept` still needs
    /// of it (the same entry's name, or every event of the same folder).
    private static func detach(_ id: UInt64, from step: Step, keeping kept: Set<Step> = [], in state: inout State) {
        guard var watch = state.watches[step.descriptor] else { return }
        let folder = kept.filter { $0.descriptor == step.descriptor }
        if !folder.contains(where: { $0.name == step.name }) {
            watch.byName[step.name]?.remove(id)
            if watch.byName[step.name]?.isEmpty == true { watch.byName[step.name] = nil }
        }
        if step.isFileFolder && !folder.contains(where: \.isFileFolder) { watch.everyEvent.remove(id) }
        if watch.byName.isEmpty && watch.everyEvent.isEmpty {
            state.watches[step.descriptor] = nil
            // After `IN_IGNORED` the kernel has dropped the watch already, and this fails
            // harmlessly (`EINVAL`).
            _ = inotify_rm_watch(state.inotify, step.descriptor)
        } else {
            state.watches[step.descriptor] = watch
        }
    }

    /// One event read from the `inotify` descriptor.
    private struct Event {
        let descriptor: Int32
        let flags: UInt32
        let name: String
    }

    private func run(_ inotify: Int32, mounts: Int32) {
        // Room for many events at once; each is a 16-byte header and a padded name.
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        // The mount table reports a change as `POLLPRI`/`POLLERR`, once per change, with no read.
        var descriptors = [pollfd(fd: inotify, events: Int16(POLLIN), revents: 0)]
        if mounts >= 0 { descriptors.append(pollfd(fd: mounts, events: Int16(POLLPRI), revents: 0)) }
        while true {
            guard poll(&descriptors, nfds_t(descriptors.count), -1) >= 0 else {
                if errno == EINTR { continue }
                return
            }
            let mountsChanged = descriptors.count > 1 && descriptors[1].revents & Int16(POLLPRI | POLLERR) != 0
            var events: [Event] = []
            if descriptors[0].revents & Int16(POLLIN) != 0 {
                let count = read(inotify, buffer, capacity)
                if count < 0 && errno != EINTR && errno != EAGAIN { return }
                var offset = 0
                while offset + 16 <= count {
                    let nameLength = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let name = buffer.advanced(by: offset + 16).assumingMemoryBound(to: CChar.self)
                    events.append(
                        Event(
                            descriptor: buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                            flags: buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                            name: nameLength > 0 ? String(cString: name) : ""))
                    offset += 16 + nameLength
                }
            }
            let (handlers, polling) = state.withLock { state in
                Self.handlers(for: events, mountsChanged: mountsChanged, in: &state)
            }
            apply(polling)
            for handler in handlers { handler() }
        }
    }

    /// The handlers to call for one batch of events; re-resolves the registrations whose way
    /// may have changed.
    private static func handlers(for events: [Event], mountsChanged: Bool, in state: inout State)
        -> ([@Sendable () -> Void], PollingChanges)
    {
        var polling = PollingChanges()
        let overflow = events.contains { $0.flags & UInt32(IN_Q_OVERFLOW) != 0 }
        if overflow { state.overflowCount += 1 }
        var notified: Set<UInt64> = overflow ? Set(state.entries.keys) : []
        var resolved: Set<UInt64> = notified
        for event in events {
            guard let watch = state.watches[event.descriptor] else { continue }
            if event.flags & (UInt32(IN_IGNORED) | UInt32(IN_DELETE_SELF) | UInt32(IN_MOVE_SELF)) != 0 {
                notified.formUnion(watch.all)
                resolved.formUnion(watch.all)
                if event.flags & UInt32(IN_IGNORED) != 0 {
                    // The kernel dropped the watch: no registration may keep it.
                    state.watches[event.descriptor] = nil
                    for id in watch.all {
                        let kept = state.entries[id]?.steps.filter { $0.descriptor != event.descriptor }
                        if let kept { state.entries[id]?.steps = kept }
                    }
                }
            } else {
                notified.formUnion(watch.everyEvent)
                if let ids = watch.byName[event.name] {
                    notified.formUnion(ids)
                    resolved.formUnion(ids)
                }
            }
        }
        // After a change of mounts every registration is resolved again, and those whose watches
        // moved (a mount over a folder on the way) are checked.
        for id in (mountsChanged ? Set(state.entries.keys) : resolved).sorted() where state.entries[id] != nil {
            let (complete, changed) = arm(id, in: &state)
            if changed { notified.insert(id) }
            if complete, let check = state.entries[id]?.polling {
                polling.removed.append(check)
                state.entries[id]?.polling = nil
            } else if !complete, state.entries[id]?.polling == nil {
                polling.needed.append(id)
            }
        }
        return (notified.sorted().compactMap { state.entries[$0]?.handler }, polling)
    }

    /// Changes to the scheduler's polling checks, decided under the lock and made after it is
    /// released: the scheduler takes its own lock and may start its thread.
    private struct PollingChanges {
        var removed: [ChangeCheckScheduler.Entry] = []
        /// Registrations that need a polling check and have none.
        var needed: [UInt64] = []
    }

    /// Makes `changes`, with no lock held: a check added for a registration that was removed,
    /// or that got one meanwhile, is removed again.
    private func apply(_ changes: PollingChanges) {
        for check in changes.removed { ChangeCheckScheduler.shared.remove(check) }
        for id in changes.needed {
            let check = ChangeCheckScheduler.shared.add(everyNanoseconds: Self.pollingInterval) {
                FolderEvents.shared.pollWithoutWatch(id)
            }
            let kept = state.withLock { state -> Bool in
                guard state.entries[id] != nil, state.entries[id]?.polling == nil else { return false }
                state.entries[id]?.polling = check
                return true
            }
            if !kept { ChangeCheckScheduler.shared.remove(check) }
        }
    }

    /// One polling check of a registration with a folder on its way that cannot be watched:
    /// tries to watch it again (and stops polling when that works), then calls its handler.
    private func pollWithoutWatch(_ id: UInt64) {
        let (handler, stopped) = state.withLock { state -> ((@Sendable () -> Void)?, ChangeCheckScheduler.Entry?) in
            guard state.entries[id] != nil else { return (nil, nil) }
            var stopped: ChangeCheckScheduler.Entry?
            if Self.arm(id, in: &state).complete, let polling = state.entries[id]?.polling {
                stopped = polling
                state.entries[id]?.polling = nil
            }
            return (state.entries[id]?.handler, stopped)
        }
        if let stopped { ChangeCheckScheduler.shared.remove(stopped) }
        handler?()
    }

    /// For tests: runs `action` once between the next walk of `path`'s registration and the placing
    /// of its watches, a change racing the walk. `action` must not call this type.
    package func afterNextWalk(of path: String, run action: @escaping @Sendable () -> Void) {
        state.withLock { $0.afterNextWalk[path] = action }
    }

    /// How many times the kernel's event queue overflowed (`IN_Q_OVERFLOW`), each making every
    /// registration's file checked; for tests that count checks.
    package var overflowCount: Int { state.value.overflowCount }

    /// Makes watches of `folder` fail (or succeed again) as when the system's watch limit is
    /// reached, for tests of the fallback to polling.
    package func refuseWatches(of folder: String, _ refused: Bool) {
        state.withLock { state in
            if refused { state.refusedFolders.insert(folder) } else { state.refusedFolders.remove(folder) }
        }
    }
}
#endif
