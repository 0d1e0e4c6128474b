import Foundation

extension UserDefaultsStore: TransactionalStore {
    /// Applies every change `body` makes to its ``StoreBatch`` as one step: the batch that
    /// `MigratingStore` runs its renames and migrations in.
    ///
    /// `body` sees the values stored in the suite's domain (not registered or argument-domain
    /// values) while the batch holds off two kinds of writer: every store of this process on
    /// the suite (the suite's writers' lock), and every batch of another process on the same
    /// suite, by an advisory `flock` on a lock file beside the suite's property list
    /// (`<suite>.plist.lock`: in `$XDG_CONFIG_HOME` or `~/.config` on Linux, in the
    /// `Library/Preferences` folder of the App Group container, or of the app's home, on Apple
    /// platforms). Under the lock the defaults are read afresh (`synchronize()`), so a batch
    /// sees what another process's batch committed: when an app and its extension open a
    /// `MigratingStore` on one App Group suite at once, one migrates and the other finds the
    /// new version recorded. The kernel releases the lock of a process that dies.
    ///
    /// It promises less than a ``FileStore`` batch: a plain write from another process takes no
    /// lock and may land during the batch; on Apple platforms other processes may see some
    /// keys of a batch before the others, and a crash in the middle may leave some of them
    /// written (a migration that finds its version unrecorded runs again, so write migrations
    /// that can run twice, as ``StoreBatch/moveValue(fromKey:toKey:)`` can). On Linux the
    /// batch is written with one `synchronize()`, one rewrite of the domain file.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws; ``StorageError/Code/invalidKey`` for an invalid key, or
    ///   for a store on a `UserDefaults` instance passed to ``init(_:)`` other than the
    ///   standard one (its domain, and so its lock file, is not known); what
    ///   ``setValue(_:forKey:)`` throws. Nothing changes then.
    public func batch<R>(_ body: (inout StoreBatch) throws -> R) throws -> R {
        do {
            guard box.isDomainKnown else {
                throw StorageError(
                    .invalidKey,
                    message: "the suite of this UserDefaults instance is not known; "
                        + "open the store with init(suiteName:) to batch or migrate it")
            }
            try UpdateScope.checkOutsideUpdateBody(of: [UpdateScope.medium(shared)])
            return try shared.withWriters {
                try shared.batchLock(path: try domainFilePath(forKey: nil) + ".lock").withLock {
                    try runBatch(body)
                }
            }
        } catch let error as StorageError {
            throw error.adding(location: location)
        }
    }

    /// The batch itself; the caller holds both locks.
    private func runBatch<R>(_ body: (inout StoreBatch) throws -> R) throws -> R {
        // Drops the cached domain (it has no pending writes: every commit saves), so what
        // another process's batch wrote is read.
        defaults.synchronize()
        #if !canImport(Darwin)
        try checkDomainFile(forKey: nil)
        #endif
        let domain = defaults.persistentDomain(forName: domainName) ?? [:]
        var batch = StoreBatch(values: domain.compactMapValues(PropertyListValue.storedValue(from:)))
        let result = try UpdateScope.runBody(ofUpdateOn: [UpdateScope.medium(shared)], key: nil) { try body(&batch) }
        if let invalid = batch.invalidKey { throw invalid }
        let changed = batch.changedKeys.sorted()
        // Every value is converted before the first is written.
        let objects = try changed.map { key -> Any? in
            do {
                return try batch.values[key].map { value in
                    try PropertyListValue.checkXMLCharacters(key, inKey: true)
                    return try PropertyListValue.object(from: value)
                }
            } catch let error as StorageError {
                throw error.adding(key: key, location: location)
            }
        }
        for (key, object) in zip(changed, objects) {
            shared.willCommit(batch.values[key], forKey: key)
            write(object, forKey: key)
            shared.forgetProvenance(forKey: key)
        }
        #if !canImport(Darwin)
        if !changed.isEmpty, !defaults.synchronize() {
            for key in changed {
                write(domain[key], forKey: key)
                shared.forgetProvenance(forKey: key)
            }
            throw StorageError(
                .io, location: location, message: "UserDefaults could not save the domain file; the batch was not saved"
            )
        }
        #endif
        for key in changed {
            shared.didCommit(visible: value(forKey: key), forKey: key)
        }
        return result
    }
}
