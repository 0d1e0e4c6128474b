import Foundation

extension FileStore {
    /// Reads the file again now and delivers what changed, as if a change check had found it.
    ///
    /// Use it where the store does not watch its file (``Options/changeCheckInterval`` `nil`):
    /// a long-running tool that re-reads its settings when it receives `SIGHUP`, as the
    /// `StoredSettingsCommandLine` article on command-line tools shows. A store that watches
    /// never needs it, but may call it.
    ///
    /// ```swift
    /// let file = try FileStore(
    ///     url: URL(fileURLWithPath: "settings.json"),
    ///     options: FileStore.Options(changeCheckInterval: nil))
    /// // … later, when told the file changed:
    /// try file.reload()
    /// ```
    ///
    /// The file is read whatever its inode, size and modification time say, and each key whose
    /// value differs from the one in memory is delivered once through ``changes()``, in one
    /// batch, exactly like a change the watch finds; a file that holds the same values
    /// delivers nothing. A missing file is an empty store: every key is delivered as removed.
    /// Like opening, reloading never waits for another process's write (the file is replaced
    /// by an atomic `rename`, so a read sees one whole version); it waits only for a write of
    /// this store in progress.
    ///
    /// - Throws: ``StorageError/Code/dataCorrupted`` when the file does not parse (with the
    ///   line and column where the parser gives them), or was emptied after it held settings;
    ///   ``StorageError/Code/nestingTooDeep``, ``StorageError/Code/tooLarge`` and
    ///   ``StorageError/Code/io`` as ``init(url:format:options:)`` does, all naming the path;
    ///   ``StorageError/Code/reentrantWrite`` when called from inside an ``update(forKey:_:)``
    ///   or ``batch(_:)`` body of this store. The values in memory then stay as they were and
    ///   nothing is delivered; the file is never touched, whatever the
    ///   ``CorruptFilePolicy`` (a policy applies when the store opens or writes).
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
