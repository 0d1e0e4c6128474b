import Foundation
import StoredSettings

extension EtcdStore {
    /// Serves the snapshot `cache` holds, when it holds a usable one: marks the store
    /// disconnected since `since`, reports that it serves cached values, and starts the watch,
    /// which reads the prefix from etcd once an endpoint answers.
    ///
    /// - Returns: Whether the cache serves; `false` for a missing or unusable cache (the
    ///   latter reported by the cache).
    func servesCache(_ cache: EtcdSnapshotCache, since: Date, problems: [String]) -> Bool {
        guard let (entries, revision) = cache.load() else { return false }
        snapshot.serveCached(entries, revision: revision)
        snapshot.setDisconnected(since)
        StorageErrorReporter.report(
            StorageError(
                .io, location: "etcd \(configuration.endpointList)",
                message:
                    "no endpoint answered (\(problems.suffix(4).joined(separator: "; "))); serving the snapshot of revision \(revision) cached in \(cache.url.path) until one does"
            ))
        watcher.start(fromCache: true)
        return true
    }

    /// The error of a write made while the store serves its cached snapshot: nothing is sent
    /// or queued until an endpoint has answered and the snapshot is etcd's again.
    func cachedSnapshotWriteError(_ key: String) -> StorageError {
        StorageError(
            .io, key: key, location: "etcd \(configuration.endpointList)",
            message:
                "no endpoint has answered since the store opened from its snapshot cache, nothing was changed")
    }

    /// Returns once every save of the snapshot cache started so far is on disk: for tests,
    /// which wait on this instead of a clock.
    package func flushSnapshotCache() {
        snapshot.cache?.flush()
    }
}
