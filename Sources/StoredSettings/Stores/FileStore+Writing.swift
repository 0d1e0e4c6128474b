import Foundation

extension FileStore {
    /// The one write path: under this store's lock and the file's cross-process lock, bring
    /// the values up to date with the file, let `body` change a copy, and write the copy if
    /// `body` says it changed something.
    ///
    /// `body` returns its result and the keys whose values it changed (empty: nothing to
    /// write). A throwing `body`, encoding or write changes nothing in memory or on disk.
    ///
    /// A commit from inside the `body` of a commit of this store, or of any store of this
    /// process on the same file, throws ``StorageError/Code/reentrantWrite`` (``UpdateScope``)
    /// instead of waiting for its own lock. `key` names the key being updated, for that message.
    func commit<R>(key: String? = nil, _ body: (inout [String: StoredValue]) throws -> (result: R, changedKeys: [String])) throws -> R {
        var reports: [StorageError] = []
        defer { for report in reports { StorageErrorReporter.report(report) } }
        let store = UpdateScope.medium(self)
        try UpdateScope.checkOutsideUpdateBody(of: [store])
        return try file.withLock { state in
            let target = try FileSystem.resolvingSymbolicLinks(url.path)
            // Another store on the same file would wait forever for the `flock` held here.
            let media = [store, "file " + target]
            try UpdateScope.checkOutsideUpdateBody(of: media)
            let directory = (target as NSString).deletingLastPathComponent
            if state.fingerprint == nil, !directory.isEmpty {
                try FileSystem.createDirectories(atPath: directory)
            }
            let lock = state.lock(forTarget: target)
            return try lock.withLock {
                var values = try refresh(&state, target: target, underFileLock: true, reports: &reports)
                let (result, changedKeys) = try UpdateScope.runBody(ofUpdateOn: media, key: key) { try body(&values) }
                guard !changedKeys.isEmpty else { return result }
                let data = try Self.encode(values, format: format, encoding: state.encoding, source: state.source)
                guard data.count <= options.maximumFileSize else {
                    throw StorageError(.tooLarge, path: target, message: "the file would have \(data.count) bytes, more than the limit of \(options.maximumFileSize)")
                }
                let permissions = state.fingerprint?.permissions ?? 0o600
                if state.fingerprint != nil {
                    try Self.checkWritable(target, permissions: permissions)
                }
                state.fingerprint = try AtomicFile.write(data, toPath: target, permissions: permissions)
                AtomicFile.removeStaleTemporaryFiles(for: target)
                storage.replace(with: values, changedKeys: changedKeys)
                return result
            }
        }
    }

    /// Refuses to replace a file its owner made read-only: the atomic `rename` would otherwise
    /// replace a file that `write(2)` could not change. A file without any write bit (such as
    /// mode 0444), or one this process may not write (`access(2)` with `W_OK`), throws.
    ///
    /// - Throws: ``StorageError/Code/io`` naming the path and the file's mode.
    static func checkWritable(_ path: String, permissions: UInt32) throws {
        let octal = String(permissions & 0o7777, radix: 8)
        if permissions & 0o222 == 0 {
            throw StorageError(.io, path: path, message: "the file is read-only (mode \(octal)); make it writable to save settings")
        }
        if access(path, W_OK) != 0 {
            throw StorageError(.io, path: path, message: "this user may not write the file (mode \(octal)): \(String(cString: strerror(errno)))")
        }
    }

    /// Brings the values in memory up to date with the file when it changed since they were
    /// loaded (by inode, size and modification time), publishing what changed, and returns
    /// them.
    ///
    /// A file that no longer exists is an empty store. A file that does not parse throws,
    /// unless the policy is ``CorruptFilePolicy/moveAside`` and the caller holds the file lock.
    /// Errors to report (a file moved aside) are appended to `reports`, for the caller to
    /// deliver once it holds no lock.
    func refresh(
        _ state: inout FileState, target: String, underFileLock: Bool, reports: inout [StorageError]
    ) throws -> [String: StoredValue] {
        let current = try FileSystem.fingerprint(atPath: target)
        if current == state.fingerprint { return storage.snapshot }
        var loaded: LoadedFile?
        do {
            loaded = try Self.load(path: target, format: format, options: options)
        } catch let error as StorageError where Self.isCorruption(error) && underFileLock && options.corruptFilePolicy == .moveAside {
            loaded = try Self.loadMovingAsideIfCorrupt(path: target, format: format, options: options, reports: &reports)
        }
        state.reportedBadFingerprint = nil
        guard let loaded else {
            state.fingerprint = nil
            storage.replaceAll(with: [:])
            return [:]
        }
        state.fingerprint = loaded.fingerprint
        state.encoding = loaded.encoding
        state.source = loaded.source
        storage.replaceAll(with: loaded.values)
        return loaded.values
    }
}

extension DictionaryStorage {
    /// Replaces the values with `values`, which differ from the current ones exactly at
    /// `changedKeys`, and publishes those keys: ``replaceAll(with:)`` without comparing every
    /// key, for writes that know what they changed.
    func replace(with values: [String: StoredValue], changedKeys: [String]) {
        state.withLock { state in
            state.values = values
            state.revision &+= 1
            broadcaster.publish(changedKeys.map { StoredChange(key: $0, value: values[$0]) })
        }
    }
}
