import Foundation

extension FileStore {
    /// Reads the file again now and delivers what changed, as if a change check had found it.
    ///
    /// For a store that does not watch its file (``Options/changeCheckInterval`` `nil`), such
    /// as a tool that re-reads its settings on `SIGHUP`.
    ///
    /// ```swift
    /// let file = try FileStore(
    ///     url: URL(fileURLWithPath: "settings.json"),
    ///     options: FileStore.Options(changeCheckInterval: nil))
    /// // … later, when told the file changed:
    /// try file.reload()
    /// ```
    ///
    /// The file is always read; each key whose value changed is delivered once through
    /// ``changes()``, as a change the watch finds (a missing file removes every key). It never
    /// waits for another process, only for a write of this store in progress.
    ///
    /// - Throws: What ``init(url:format:options:)`` throws, and
    ///   ``StorageError/Code/dataCorrupted`` for a file emptied after it held settings;
    ///   ``StorageError/Code/reentrantWrite`` from inside an ``update(forKey:_:)`` or
    ///   ``batch(_:)`` body of this store. Memory then stays as it was, and the file is never
    ///   touched, whatever the ``CorruptFilePolicy``.
    ///
    /// Thread-safety: may be called from any thread, including a signal source's handler.
    public func reload() throws {
        try reload(first: {})
    }

    /// ``reload()``, running `first` under the file lock before the file is read: a change
    /// `first` drops from the write-behind queue leaves memory with no write in between.
    func reload(first: () -> Void) throws {
        try UpdateScope.checkOutsideUpdateBody(of: [medium])
        try withFileLock { state in
            first()
            do {
                let target = try FileSystem.resolvingSymbolicLinks(path)
                try UpdateScope.checkOutsideUpdateBody(of: ["file " + target])
                let hadContent = (state.fingerprint?.size ?? 0) > 0
                let loaded = try Self.load(path: target, format: format, options: options)
                if let loaded, loaded.fingerprint.size == 0, hadContent { throw Self.emptiedFileError(path: target) }
                state.reportedPathProblem = nil
                adopt(loaded, into: &state)
            } catch let error as StorageError {
                throw error.adding(location: path)
            } catch {
                throw StorageError(.io, wrapping: error, location: path)
            }
        }
    }

    /// Makes `loaded` (`nil`: no file) the version in memory, publishing each key that
    /// changed. Called with ``file`` held.
    func adopt(_ loaded: LoadedFile?, into state: inout FileState) {
        state.reportedBadFingerprint = nil
        guard let loaded else {
            state.fingerprint = nil
            install([:], publishing: nil, including: [:])
            return
        }
        state.fingerprint = loaded.fingerprint
        state.encoding = loaded.encoding
        state.source = loaded.source
        install(loaded.values, publishing: nil, including: [:])
    }
}
