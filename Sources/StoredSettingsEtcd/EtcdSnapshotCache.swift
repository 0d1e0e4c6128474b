import Foundation
import StoredSettings

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file an ``EtcdStore`` keeps its last snapshot in (``EtcdStore/Configuration-swift.struct/snapshotCacheFile``),
/// so a store opened while no endpoint answers can serve it.
///
/// The file is JSON: `{"endpoints": [URL, …], "prefix": PREFIX, "revision": N, "values": {KEY:
/// TEXT, …}}`, each value as the JSON text etcd holds for it. A write goes to a temporary file
/// in the same folder, is `fsync`ed, `rename`d over the cache, and the folder is `fsync`ed: a
/// crash leaves the old or the new whole cache. A write whose bytes equal the last is skipped.
///
/// Thread-safety: `Sendable`; saves run one at a time on the cache's queue, and a save of an
/// older revision than this process wrote is dropped (another process sharing the file may
/// still replace a newer cache with an older one).
final class EtcdSnapshotCache: Sendable {
    let url: URL
    private let endpoints: [String]
    private let prefix: String
    private struct Written {
        var revision: Int64 = 0
        /// The file's bytes as this process last read or wrote them.
        var bytes: Data?
    }
    private let written: Lock<Written>
    /// Runs saves off the thread that changed the snapshot; ``flush()`` waits for them.
    private let queue = DispatchQueue(label: "EtcdStore snapshot cache")
    /// The newest snapshot waiting for the queue, if any: saves of a busy watch coalesce.
    private let pending = Lock<(entries: [String: EtcdSnapshot.Entry], revision: Int64)?>(nil)
    /// Set by ``shutDown()``: no save starts after it.
    private let closed = Lock(false)
    /// The last save failure reported, so a folder that cannot be written is reported once.
    private let reportedFailure = Lock<StorageError?>(nil)

    /// The largest cache file read, in bytes: 64 MiB, far more than a prefix of settings
    /// holds; a larger file is reported and ignored.
    static let maximumFileSize = 64 * 1024 * 1024

    init(url: URL, configuration: EtcdStore.Configuration) {
        self.url = url
        endpoints = configuration.endpoints.map(\.absoluteString)
        prefix = configuration.prefix
        written = Lock(Written(bytes: try? Self.read(url)))
        removeTemporaryFilesOfEndedWriters()
    }

    /// The bytes of the file at `url` (a symbolic link followed); `nil` when it is missing.
    ///
    /// Opened without waiting (`O_NONBLOCK`) and checked on the open descriptor (`fstat`), so
    /// a FIFO or device put at the path is refused, never waited on.
    ///
    /// - Throws: An error for a file that is not regular or is over ``maximumFileSize``, or
    ///   cannot be read.
    private static func read(_ url: URL) throws -> Data? {
        let fd = descriptorAboveStandardStreams(open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC))
        if fd < 0 && errno == ENOENT { return nil }
        guard fd >= 0 else { throw failure("open", url.path) }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure("fstat", url.path) }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_size <= maximumFileSize else {
            throw StorageError(
                .io, location: url.path, message: "not a regular file of at most \(maximumFileSize) bytes")
        }
        return try handle.readToEnd() ?? Data()
    }

    /// Removes the temporary files (`<name>.tmp-<pid>-<n>`) of writers killed before their
    /// `rename`: those whose process no longer exists.
    private func removeTemporaryFilesOfEndedWriters() {
        let folder = url.deletingLastPathComponent()
        let stem = url.lastPathComponent + ".tmp-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where name.hasPrefix(stem) {
            guard let pid = Int32(name.dropFirst(stem.count).prefix { $0 != "-" }),
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// The cached values and their revision; `nil` when the file is missing, and `nil` with a
    /// warning to `StorageErrorReporter` when it does not parse or holds another cluster's or
    /// prefix's snapshot.
    func load() -> (entries: [String: StoredValue], revision: Int64)? {
        let bytes: Data
        do {
            guard let read = try Self.read(url) else { return nil }
            bytes = read
        } catch {
            return ignored("it cannot be read (\(error))")
        }
        let root: StoredValue
        do {
            root = try StoredValue(jsonData: bytes)
        } catch {
            return ignored("it does not parse (\(error))")
        }
        guard case .dictionary(let fields) = root, case .array(let endpointValues)? = fields["endpoints"],
            case .string(let prefix)? = fields["prefix"], case .int(let revision)? = fields["revision"],
            revision >= 0, revision < Int64.max, case .dictionary(let texts)? = fields["values"]
        else { return ignored("it is not a snapshot cache") }
        guard prefix == self.prefix else { return ignored("it holds prefix '\(prefix)', not '\(self.prefix)'") }
        // The same members in another order are the same cluster.
        guard Set(endpointValues) == Set(endpoints.map(StoredValue.string)) else {
            return ignored("it holds the snapshot of other endpoints")
        }
        var entries: [String: StoredValue] = [:]
        for (key, text) in texts {
            guard case .string(let text) = text else { return ignored("its value of '\(key)' is not text") }
            entries[key] = EtcdValue.decode(Data(text.utf8))
        }
        return (entries, revision)
    }

    private func ignored(_ reason: String) -> (entries: [String: StoredValue], revision: Int64)? {
        StorageErrorReporter.report(
            StorageError(.dataCorrupted, location: url.path, message: "snapshot cache ignored: \(reason)"))
        return nil
    }

    /// Saves `entries` at `revision` on the cache's queue, after the saves already waiting; a
    /// newer snapshot handed in meanwhile replaces this one.
    func saveLater(_ entries: [String: EtcdSnapshot.Entry], revision: Int64) {
        guard !closed.value else { return }
        let scheduled = pending.withLock { pending in
            defer { pending = (entries, revision) }
            return pending != nil
        }
        guard !scheduled else { return }
        queue.async { [self] in
            if let (entries, revision) = pending.withLock({ pending in
                defer { pending = nil }
                return pending
            }) {
                save(entries, revision: revision)
            }
        }
    }

    /// Lets the saves already handed in finish and starts no other: the store is released,
    /// and a watch answer still under way must not write (or re-create the folder) after it.
    func shutDown() {
        closed.withLock { $0 = true }
        queue.sync {}
    }

    /// Returns once every save handed to ``saveLater(_:revision:)`` so far is done.
    func flush() {
        queue.sync {}
    }

    /// Writes `entries` at `revision` now, unless a newer revision was written or the bytes
    /// would be the file's own; a failure is reported to `StorageErrorReporter`, never thrown:
    /// the cache only helps a later open.
    private func save(_ entries: [String: EtcdSnapshot.Entry], revision: Int64) {
        var texts: [String: StoredValue] = [:]
        for (key, value) in entries {
            guard let bytes = try? EtcdValue.encode(value.value) else { continue }
            texts[key] = .string(String(decoding: bytes, as: UTF8.self))
        }
        let root = StoredValue.dictionary([
            "endpoints": .array(endpoints.map(StoredValue.string)), "prefix": .string(prefix),
            "revision": .int(revision), "values": .dictionary(texts),
        ])
        let problem = written.withLock { written -> StorageError? in
            guard revision >= written.revision, let bytes = try? root.jsonData(), bytes != written.bytes else {
                return nil
            }
            do {
                try Self.replace(url, with: bytes)
                written = Written(revision: revision, bytes: bytes)
                return nil
            } catch {
                return StorageError(.io, location: url.path, message: "snapshot cache not written: \(error)")
            }
        }
        // Reported outside the lock, and once until the failure changes or a save succeeds.
        let isNew = reportedFailure.withLock { reported in
            defer { reported = problem }
            return problem != nil && problem != reported
        }
        if isNew, let problem { StorageErrorReporter.report(problem) }
    }

    /// Replaces the file at `url` with `bytes` crash-safely: a temporary file in the same
    /// folder, `fsync`ed, `rename`d over it, then the folder `fsync`ed.
    private static func replace(_ url: URL, with bytes: Data) throws {
        let folder = url.deletingLastPathComponent().path
        try FileManager.default.createDirectory(
            atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = "\(url.path).tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = descriptorAboveStandardStreams(open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600))
        guard fd >= 0 else { throw failure("open", temporary) }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        let wrote = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        guard wrote, fsync(fd) == 0 else {
            let error = failure(wrote ? "fsync" : "write", temporary)
            close(fd)
            throw error
        }
        close(fd)
        guard rename(temporary, url.path) == 0 else { throw failure("rename", temporary) }
        renamed = true
        let folderFD = descriptorAboveStandardStreams(open(folder, O_RDONLY | O_CLOEXEC))
        guard folderFD >= 0 else { throw failure("open", folder) }
        defer { close(folderFD) }
        guard fsync(folderFD) == 0 else { throw failure("fsync", folder) }
    }

    private static func failure(_ call: String, _ path: String) -> StorageError {
        StorageError(.io, location: path, message: "\(call) failed: \(String(cString: strerror(errno)))")
    }
}
