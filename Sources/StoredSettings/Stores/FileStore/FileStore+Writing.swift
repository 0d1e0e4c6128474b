import Foundation

extension FileStore {
    /// The one write path: under this store's lock and the file's cross-process lock, catch up with
    /// the file, let `body` change a copy and name the keys it changed, and write if any. A failure
    /// changes nothing; a commit inside `body` on the same file throws `reentrantWrite`. If the
    /// lock file or the file changed before the `rename`, it starts over and `body` runs again.
    func commit<R>(
        key: String? = nil, _ body: (inout [String: StoredValue]) throws -> (result: R, changedKeys: [String])
    ) throws -> R {
        try commitChanges(key: key) { values in
            let (result, changedKeys) = try body(&values)
            return (result, changedKeys.map { StoredChange(key: $0, value: values[$0]) })
        }
    }

    /// ``commit(key:_:)`` for a `body` naming the changes to publish, in order; `refused` maps the
    /// error when its file fails the checks of ``fileBytes(_:encoding:source:target:)``;
    /// `writesPending` when `body` writes the pending changes, read by itself.
    func commitChanges<R>(
        key: String? = nil, refused: (StorageError) -> any Error = { $0 }, writesPending: Bool = false,
        _ body: (inout [String: StoredValue]) throws -> (result: R, changes: [StoredChange])
    ) throws -> R {
        var reports: [StorageError] = []
        defer { for report in reports { StorageErrorReporter.report(report) } }
        let store = medium
        try UpdateScope.checkOutsideUpdateBody(of: [store])
        return try withFileLock { state in
            try FileSystem.checkNoOtherUserCanRedirect(path)
            let target = try FileSystem.resolvingSymbolicLinks(path)
            if target != path { try FileSystem.checkNoOtherUserCanRedirect(target) }
            // Another store on the same file would wait forever for the `flock` held here.
            let media = [store, "file " + target]
            try UpdateScope.checkOutsideUpdateBody(of: media)
            if state.fingerprint == nil {
                // Missing folders are created for the path as given, never at the target of a
                // symbolic link: a dangling link cannot make the store build folders elsewhere.
                let directory = (path as NSString).deletingLastPathComponent
                if !directory.isEmpty {
                    try FileSystem.createDirectories(atPath: directory)
                    // A `..` after a folder that did not exist could not be checked before.
                    try FileSystem.checkNoOtherUserCanRedirect(path)
                }
            }
            let lock = state.lock(forTarget: target)
            let destination = state.destination(forTarget: target)
            for _ in 0..<FileLock.attempts {
                try lock.lock()
                defer { lock.unlock() }
                // The wait may have been long: a link planted on the path meanwhile is refused.
                try FileSystem.checkNoOtherUserCanRedirect(path)
                if target != path { try FileSystem.checkNoOtherUserCanRedirect(target) }
                let read = try refresh(&state, target: target, underFileLock: true, reports: &reports)
                var values = read.values
                let (result, changes) = try UpdateScope.runBody(ofUpdateOn: media, key: key) { try body(&values) }
                guard !changes.isEmpty else { return result }
                let data: Data
                do {
                    data = try fileBytes(
                        values, encoding: state.encoding, source: state.source, target: target)
                } catch let error as StorageError {
                    throw refused(error)
                }
                let replaced = state.fingerprint
                let permissions = replaced?.permissions ?? 0o600
                if replaced != nil {
                    try Self.checkWritable(target, permissions: permissions)
                }
                do {
                    defer { memory.withLock { $0.versions.writing = nil } }
                    state.fingerprint = try AtomicFile.write(
                        data, to: destination, permissions: permissions,
                        owner: replaced.map { AtomicFile.Owner(user: $0.ownerID, group: $0.groupID) },
                        fullFlush: options.flushesDriveCache, hook: options.durabilityHook
                    ) { written in
                        guard lock.isStillValid(), try FileSystem.fingerprint(atPath: target) == replaced else {
                            throw LockTakenAway()
                        }
                        memory.withLock { $0.versions.writing = written }
                    }
                } catch is LockTakenAway {
                    continue
                }
                AtomicFile.removeStaleTemporaryFiles(for: destination)
                // The background writer's body reads the pending changes itself, perhaps newer
                // than `read`'s: those it wrote are the ones that stop being pending.
                let written =
                    writesPending
                    ? Dictionary(changes.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }) : read.pending
                install(values, publishing: changes, including: written)
                return result
            }
            throw StorageError(
                .io, location: target,
                message:
                    "cannot lock \((target as NSString).lastPathComponent).lock: it keeps being deleted during writes")
        }
    }

    /// The bytes of the file holding `values`, checked as every write checks them: `encodingFailed`
    /// or `nestingTooDeep` for what the format cannot hold, `tooLarge` past the size limit.
    func fileBytes(
        _ values: [String: StoredValue], encoding: PropertyListValue.FileEncoding, source: StoredValueJSON.SourceText,
        target: String
    ) throws -> Data {
        let data = try Self.encode(values, format: format, encoding: encoding, source: source)
        guard data.count <= options.maximumFileSize else {
            throw StorageError(
                .tooLarge, location: target,
                message: "the file would have \(data.count) bytes, more than the limit of \(options.maximumFileSize)")
        }
        return data
    }

    /// The bytes of a file holding `values`, keys sorted; JSON keys whose values are as `source`
    /// read them keep the file's spelling. Throws `encodingFailed` with the setting as
    /// ``StorageError/key`` and the place inside its value as the coding path.
    static func encode(
        _ values: [String: StoredValue], format: Format, encoding: PropertyListValue.FileEncoding,
        source: StoredValueJSON.SourceText
    ) throws -> Data {
        do {
            switch format {
            case .json: return try StoredValueJSON.data(from: .dictionary(values), keeping: source)
            case .propertyList: return try PropertyListValue.fileData(from: .dictionary(values), encoding: encoding)
            }
        } catch var error as StorageError where error.key == nil && !error.codingPath.isEmpty {
            error.key = error.codingPath.removeFirst()
            throw error
        }
    }

    /// Throws what a write of `value` under `key` would throw for that value alone, so the
    /// write-behind setter refuses it rather than queue it. Skipped when ``fileSurelyHolds(_:forKey:)``.
    func checkFileCanHold(_ value: StoredValue, forKey key: String) throws {
        guard !fileSurelyHolds(value, forKey: key) else { return }
        _ = try fileBytes(
            [key: value], encoding: memory.withLock { $0.versions.encoding }, source: StoredValueJSON.SourceText(),
            target: path)
    }

    /// Whether a file holding only `value` under `key` certainly passes the checks of
    /// ``fileBytes(_:encoding:source:target:)``, judged without encoding it (scalars only).
    private func fileSurelyHolds(_ value: StoredValue, forKey key: String) -> Bool {
        let text: String
        switch value {
        case .bool, .int: text = ""
        case .double(let number) where number.isFinite: text = ""
        case .string(let string): text = string
        default: return false
        }
        if format == .propertyList,
            PropertyListValue.xmlUnsupportedScalar(in: key) != nil
                || PropertyListValue.xmlUnsupportedScalar(in: text) != nil
        {
            return false
        }
        // Each byte of text takes at most 6 in the file (`\u001F` in JSON, `&amp;` in XML);
        // the rest of a one-member file (an XML property list's header, a number) under 512.
        return 512 + 6 * (key.utf8.count + text.utf8.count) <= options.maximumFileSize
    }

    /// Thrown inside a write when its lock stopped being the lock before the `rename`.
    private struct LockTakenAway: Error {}

    /// Refuses a read-only file (no write bit, or `access(2)` `W_OK` fails, as on a read-only
    /// mount), which `rename` would otherwise replace though `write(2)` could not change it.
    static func checkWritable(_ path: String, permissions: UInt32) throws {
        let octal = String(permissions & 0o7777, radix: 8)
        if permissions & 0o222 == 0 {
            throw StorageError(
                .io, location: path, message: "the file is read-only (mode \(octal)); make it writable to save settings"
            )
        }
        if access(path, W_OK) != 0 {
            // A read-only mount refuses every write, whatever the mode says.
            if errno == EROFS {
                throw StorageError(
                    .io, location: path, message: "the file is on a read-only file system; no user may write it there")
            }
            throw StorageError(
                .io, location: path,
                message: "this user may not write the file (mode \(octal)): \(String(cString: strerror(errno)))")
        }
    }

    /// Catches memory up with the file when its fingerprint changed, publishing what changed. Under
    /// the file lock an empty or unparsable file may settle or be moved aside; otherwise it never
    /// waits, and throws for a file emptied since it was read.
    func refresh(
        _ state: inout FileState, target: String, underFileLock: Bool, reports: inout [StorageError]
    ) throws -> (values: [String: StoredValue], pending: [String: StoredValue?]) {
        let current = try FileSystem.fingerprint(atPath: target)
        // An empty file may be another program's save between truncating and writing.
        let emptyBeforeWrite = underFileLock && current?.size == 0
        if current == state.fingerprint, !emptyBeforeWrite { return valuesWithPending() }
        let hadContent = (state.fingerprint?.size ?? 0) > 0
        var loaded: LoadedFile?
        if underFileLock {
            do {
                loaded = try loadSettled(target: target, hadContent: hadContent)
            } catch let error as StorageError
                where Self.isCorruption(error) && options.corruptFilePolicy == .moveAside
                && (try? FileSystem.fingerprint(atPath: target))?.size ?? 0 > 0
            {
                loaded = try Self.loadMovingAsideIfCorrupt(
                    path: target, format: format, options: options, reports: &reports)
            }
        } else {
            loaded = try Self.load(path: target, format: format, options: options)
            if let loaded, loaded.fingerprint.size == 0, hadContent { throw Self.emptiedFileError(path: target) }
        }
        adopt(loaded, into: &state)
        return overlayingPending(loaded?.values ?? [:])
    }
}
