#if canImport(Darwin)
import Darwin
import Dispatch
import Foundation

/// Tells ``FileStore``s that their files may have changed, from `kqueue` (Apple platforms);
/// <doc:ConfigurationFiles> says what is watched. Dispatch sources on `O_EVTONLY` descriptors watch
/// the folder and the file; a path through a retargetable link, or whose folder went away, is
/// polled every 250 ms instead, since a source stays on the vnode it opened. Thread-safe: the state
/// is behind a lock; handlers run on one serial queue with no lock of this type held.
package final class FolderEvents: Sendable {
    /// The event source of the process.
    package static let shared = FolderEvents()

    /// A handle to one registration, for ``remove(_:)``.
    struct Registration: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    /// A Dispatch source, which the SDK does not mark `Sendable`.
    private struct Source: @unchecked Sendable {
        // Safe: a Dispatch source is thread-safe, and this type resumes it once, when made,
        // and cancels it once, when it leaves the state under the lock.
        let source: any DispatchSourceFileSystemObject
    }

    private struct Entry {
        let path: String
        let folder: String
        let handler: @Sendable () -> Void
        var folderSource: Source?
        var fileSource: Source?
        /// The search for a folder that went away, or the check that replaces the sources once
        /// the path passes a link, while it runs.
        var search: ChangeCheckScheduler.Entry?
        /// The folders above ``folder`` watched for it, keys of ``State/ancestors``.
        var ancestors: [String] = []
    }

    /// A folder above the folders of watched files, watched for going away.
    private struct Ancestor {
        let source: Source
        /// The registrations whose paths pass it.
        var ids: Set<UInt64> = []
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var ancestors: [String: Ancestor] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Lock(State())
    private let queue = DispatchQueue(label: "StoredSettings folder events")

    private init() {}

    /// Calls `handler` on the event queue whenever the file at `path` may change, until
    /// ``remove(_:)``; `nil` when its folder cannot be opened, and the caller polls.
    func add(fileAt path: String, handler: @escaping @Sendable () -> Void) -> Registration? {
        guard !FileSystem.passesRetargetableLink(path) else { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        guard let folderSource = makeFolderSource(folder, id: id) else { return nil }
        let fileSource = makeFileSource(path, id: id)
        state.withLock { state in
            state.entries[id] = Entry(
                path: path, folder: folder, handler: handler, folderSource: folderSource, fileSource: fileSource)
        }
        queue.async { [self] in watchAncestors(of: id) }
        return Registration(id: id)
    }

    /// Stops calling the registration's handler and closes its descriptors.
    func remove(_ registration: Registration) {
        let (entry, unused) = state.withLock { state in
            let unused = Self.unwatchAncestors(of: registration.id, in: &state)
            return (state.entries.removeValue(forKey: registration.id), unused)
        }
        for source in [entry?.folderSource, entry?.fileSource].compactMap({ $0 }) + unused { source.source.cancel() }
        if let search = entry?.search { ChangeCheckScheduler.shared.remove(search) }
    }

    private func makeFolderSource(_ folder: String, id: UInt64) -> Source? {
        makeSource(folder, events: [.write, .delete, .rename, .revoke]) { [self] in
            handle($0, id: id, isFolder: true)
        }
    }

    private func makeFileSource(_ path: String, id: UInt64) -> Source? {
        makeSource(path, events: [.write, .extend, .attrib, .delete, .rename, .revoke, .link]) { [self] in
            handle($0, id: id, isFolder: false)
        }
    }

    /// A resumed source on `path` that runs `handler` with the events it reports, or `nil` when
    /// `path` cannot be opened. The handlers hold `self` strongly: it is never released.
    private func makeSource(
        _ path: String, events: DispatchSource.FileSystemEvent,
        handler: @escaping @Sendable (DispatchSource.FileSystemEvent) -> Void
    ) -> Source? {
        let fd = FileSystem.openFile(path, O_EVTONLY | O_CLOEXEC, 0)
        guard fd >= 0 else { return nil }
        let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: fd, eventMask: events, queue: queue)
        let box = Source(source: source)
        source.setEventHandler { handler(box.source.data) }
        source.setCancelHandler { close(fd) }
        source.resume()
        return box
    }

    /// On the queue: watches each folder above the registration's, below `/`, for being deleted or
    /// renamed, up to one it cannot open (above an App Sandbox container); then rechecks the
    /// folder's source, since a rename above before the source opened sent nothing.
    private func watchAncestors(of id: UInt64) {
        // A registration whose folder went meanwhile is searched for; finding it watches these.
        guard let entry = state.withLock({ $0.entries[id] }), entry.folderSource != nil else { return }
        let folder = entry.folder
        var path = (folder as NSString).deletingLastPathComponent
        while path.count > 1 {
            let ancestor = path
            let fresh =
                state.withLock({ $0.ancestors[ancestor] == nil })
                ? makeSource(ancestor, events: [.delete, .rename, .revoke]) { [self] _ in ancestorWentAway(ancestor) }
                : nil
            let surplus = state.withLock { state -> Source? in
                guard state.entries[id] != nil else { return fresh }
                var surplus = fresh
                if state.ancestors[ancestor] == nil, let fresh {
                    state.ancestors[ancestor] = Ancestor(source: fresh)
                    surplus = nil
                }
                guard state.ancestors[ancestor] != nil else { return nil }
                state.ancestors[ancestor]?.ids.insert(id)
                state.entries[id]?.ancestors.append(ancestor)
                return surplus
            }
            // Outside the lock, as every cancel here.
            surplus?.source.cancel()
            guard state.withLock({ $0.ancestors[ancestor] != nil }) else { break }
            let parent = (path as NSString).deletingLastPathComponent
            guard parent.count < path.count else { break }
            path = parent
        }
        if folderMoved(id) {
            folderWentAway(id)
            state.withLock { $0.entries[id]?.handler }?()
        }
    }

    /// Whether the registration's folder source is on another folder than the one its path
    /// names now (`fstat` of its descriptor against `stat` of the path), or none is there.
    private func folderMoved(_ id: UInt64) -> Bool {
        guard let entry = state.withLock({ $0.entries[id] }), let source = entry.folderSource else { return false }
        var opened = stat()
        var named = stat()
        guard fstat(Int32(source.source.handle), &opened) == 0 else { return false }
        return stat(entry.folder, &named) != 0 || opened.st_dev != named.st_dev || opened.st_ino != named.st_ino
    }

    /// Takes the registration off the folders above its folder; returns the sources of those no
    /// registration watches any more, for the caller to cancel after the lock.
    private static func unwatchAncestors(of id: UInt64, in state: inout State) -> [Source] {
        let paths = state.entries[id]?.ancestors ?? []
        state.entries[id]?.ancestors = []
        return paths.compactMap { path in
            state.ancestors[path]?.ids.remove(id)
            guard state.ancestors[path]?.ids.isEmpty == true else { return nil }
            return state.ancestors.removeValue(forKey: path)?.source
        }
    }

    /// Runs on the queue: the folder at `path` above watched files was deleted or renamed, and
    /// the folders under it went with it, so each file they lead to is looked for again.
    private func ancestorWentAway(_ path: String) {
        let (gone, ids) = state.withLock { state -> ([Source], Set<UInt64>) in
            let moved = state.ancestors.keys.filter { $0 == path || $0.hasPrefix(path + "/") }
            let ancestors = moved.compactMap { state.ancestors.removeValue(forKey: $0) }
            let ids = ancestors.reduce(into: Set<UInt64>()) { $0.formUnion($1.ids) }
            for id in ids { state.entries[id]?.ancestors.removeAll { moved.contains($0) } }
            return (ancestors.map(\.source), ids)
        }
        for source in gone { source.source.cancel() }
        for id in ids {
            folderWentAway(id)
            state.withLock { $0.entries[id]?.handler }?()
        }
    }

    /// Runs on the queue: opens the sources again where the vnode they watch left the path,
    /// then calls the handler.
    private func handle(_ events: DispatchSource.FileSystemEvent, id: UInt64, isFolder: Bool) {
        let gone = !events.isDisjoint(with: [.delete, .rename, .revoke])
        guard let entry = state.withLock({ $0.entries[id] }), entry.folderSource != nil else { return }
        if isFolder && gone {
            folderWentAway(id)
        } else if FileSystem.passesRetargetableLink(entry.path) {
            pollFromNowOn(id)
        } else {
            // Any change of the folder may have put another file at the path; a deleted or
            // renamed file leaves it.
            if isFolder || gone { reopenFileSource(id) }
        }
        entry.handler()
    }

    private func reopenFileSource(_ id: UInt64) {
        guard let path = state.withLock({ $0.entries[id]?.path }) else { return }
        let fresh = makeFileSource(path, id: id)
        let old = state.withLock { state -> Source? in
            guard state.entries[id] != nil else { return fresh }
            defer { state.entries[id]?.fileSource = fresh }
            return state.entries[id]?.fileSource
        }
        old?.source.cancel()
    }

    /// The path now passes a link that may be retargeted: the sources go, and the handler runs
    /// every 250 milliseconds instead (the store's check compares the file each time).
    private func pollFromNowOn(_ id: UInt64) {
        replaceSources(of: id) { [self] in
            state.withLock { $0.entries[id]?.handler }?()
        }
    }

    /// The folder was deleted or renamed: look for it every 250 milliseconds until it is back.
    private func folderWentAway(_ id: UInt64) {
        replaceSources(of: id) { [self] in lookForFolder(id) }
    }

    /// Cancels the registration's sources, those of folders above included, and runs `check` on the
    /// queue every 250 ms until ``remove(_:)`` or ``lookForFolder(_:)`` finds the folder back.
    private func replaceSources(of id: UInt64, with check: @escaping @Sendable () -> Void) {
        let sources = state.withLock { state -> [Source] in
            guard var entry = state.entries[id] else { return [] }
            let sources = [entry.folderSource, entry.fileSource].compactMap { $0 }
            entry.folderSource = nil
            entry.fileSource = nil
            state.entries[id] = entry
            return sources + Self.unwatchAncestors(of: id, in: &state)
        }
        for source in sources { source.source.cancel() }
        let search = ChangeCheckScheduler.shared.add(everyNanoseconds: 250_000_000) { [self] in
            queue.async { check() }
        }
        let kept = state.withLock { state -> Bool in
            guard state.entries[id] != nil, state.entries[id]?.search == nil else { return false }
            state.entries[id]?.search = search
            return true
        }
        // Outside the lock, as every other call into the scheduler here.
        if !kept { ChangeCheckScheduler.shared.remove(search) }
    }

    /// Runs on the queue: when the folder is back, watches it again and calls the handler.
    private func lookForFolder(_ id: UInt64) {
        guard let entry = state.withLock({ $0.entries[id] }), entry.folderSource == nil else { return }
        // Back as a path through a link: go on checking, as this search does every time.
        if FileSystem.passesRetargetableLink(entry.path) {
            entry.handler()
            return
        }
        guard let folderSource = makeFolderSource(entry.folder, id: id) else { return }
        let (registered, search) = state.withLock { state -> (Bool, ChangeCheckScheduler.Entry?) in
            guard state.entries[id] != nil else { return (false, nil) }
            state.entries[id]?.folderSource = folderSource
            defer { state.entries[id]?.search = nil }
            return (true, state.entries[id]?.search)
        }
        guard registered else {
            folderSource.source.cancel()
            return
        }
        if let search { ChangeCheckScheduler.shared.remove(search) }
        reopenFileSource(id)
        watchAncestors(of: id)
        entry.handler()
    }
}
#endif
