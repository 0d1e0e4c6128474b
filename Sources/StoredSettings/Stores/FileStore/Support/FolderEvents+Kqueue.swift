#if canImport(Darwin)
import Darwin
import Dispatch
import Foundation

/// Tells ``FileStore``s that their files may have changed, from `kqueue` (Apple platforms).
///
/// Each registration watches two vnodes with `DispatchSource.makeFileSystemObjectSource`, on
/// descriptors opened with `O_EVTONLY` (they do not keep a volume from being unmounted) and
/// `O_CLOEXEC`: the file's folder, whose `write` event says an entry was created, deleted or
/// renamed (a replacement by `rename`), and the file itself, whose `write`, `extend` and
/// `attrib` events say it was saved in place. After every folder event, and after the file is
/// deleted or renamed, the file's source is opened again on whatever the path names now.
///
/// With nothing changing nothing wakes. A folder that does not exist when the store opens,
/// or a path that passes a symbolic link its owner may retarget
/// (`FileSystem.passesRetargetableLink`), makes ``add(fileAt:handler:)`` return `nil` (the
/// store polls instead): a source stays on the vnode it opened, and no event says a link now
/// leads elsewhere. A path that comes to pass such a link (the file replaced by a link) is
/// checked every 250 milliseconds from then on; a folder deleted or renamed while watched is
/// looked for every 250 milliseconds until it is back. Each registration holds two
/// descriptors while its file exists.
///
/// Not heard: a folder above the file's folder renamed away and another made in its place
/// (the sources stay on the old folder); a store opened again, or `reload()`, looks again.
///
/// Thread-safety: every member may be called from any thread; the state is behind a lock, and
/// handlers run on one serial Dispatch queue with no lock of this type held.
package final class FolderEvents: Sendable {
    /// The event source of the process.
    package static let shared = FolderEvents()

    /// A handle to one registration, for ``remove(_:)``.
    package struct Registration: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    /// A Dispatch source, which the SDK does not mark `Sendable`.
    private struct Source: @unchecked Sendable {
        // Safe because a Dispatch source is thread-safe (Dispatch serializes `resume`,
        // `cancel` and its handlers itself), and this type only resumes it once, when made,
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
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Lock(State())
    private let queue = DispatchQueue(label: "StoredSettings folder events")

    private init() {}

    /// Calls `handler` on the event queue whenever the file at `path` may have changed, until
    /// ``remove(_:)``.
    ///
    /// - Returns: `nil` when the file's folder cannot be opened (it does not exist yet, or no
    ///   descriptor is free): the caller polls instead.
    package func add(fileAt path: String, handler: @escaping @Sendable () -> Void) -> Registration? {
        guard !FileSystem.passesRetargetableLink(path) else { return nil }
        let folder = (path as NSString).deletingLastPathComponent
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        guard
            let folderSource = makeSource(folder, events: [.write, .delete, .rename, .revoke], id: id, isFolder: true)
        else {
            return nil
        }
        let fileSource = makeSource(
            path, events: [.write, .extend, .attrib, .delete, .rename, .revoke, .link], id: id, isFolder: false)
        state.withLock { state in
            state.entries[id] = Entry(
                path: path, folder: folder, handler: handler, folderSource: folderSource, fileSource: fileSource)
        }
        return Registration(id: id)
    }

    /// Stops calling the registration's handler and closes its descriptors.
    package func remove(_ registration: Registration) {
        let entry = state.withLock { $0.entries.removeValue(forKey: registration.id) }
        entry?.folderSource?.source.cancel()
        entry?.fileSource?.source.cancel()
        if let search = entry?.search { ChangeCheckScheduler.shared.remove(search) }
    }

    /// A resumed source on `path`, or `nil` when it cannot be opened.
    private func makeSource(
        _ path: String, events: DispatchSource.FileSystemEvent, id: UInt64, isFolder: Bool
    ) -> Source? {
        let fd = open(path, O_EVTONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: fd, eventMask: events, queue: queue)
        let box = Source(source: source)
        // `self` is the process's one instance, never released: holding it strongly is free.
        source.setEventHandler { [self] in
            handle(box.source.data, id: id, isFolder: isFolder)
        }
        source.setCancelHandler { close(fd) }
        source.resume()
        return box
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
        let fresh = makeSource(
            path, events: [.write, .extend, .attrib, .delete, .rename, .revoke, .link], id: id, isFolder: false)
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

    /// Cancels the registration's sources and runs `check` on the queue every 250 milliseconds,
    /// until ``remove(_:)``, or ``lookForFolder(_:)`` finds the folder back.
    private func replaceSources(of id: UInt64, with check: @escaping @Sendable () -> Void) {
        let sources = state.withLock { state -> [Source] in
            guard var entry = state.entries[id] else { return [] }
            let sources = [entry.folderSource, entry.fileSource].compactMap { $0 }
            entry.folderSource = nil
            entry.fileSource = nil
            state.entries[id] = entry
            return sources
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
        guard
            let folderSource = makeSource(
                entry.folder, events: [.write, .delete, .rename, .revoke], id: id, isFolder: true)
        else {
            return
        }
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
        entry.handler()
    }
}
#endif
