import Foundation

extension UserDefaultsStore: TransactionalStore {
    /// Applies every change `body` makes to its ``StoreBatch`` as one step: the batch that
    /// `MigratingStore` runs its renames and migrations in.
    ///
    /// `body` sees the values stored in the suite's domain while the batch holds off every
    /// store of this process on the suite and every batch of another process, by a `flock` on
    /// `<suite>.plist.lock` beside the domain file; the defaults are read afresh under it.
    ///
    /// A plain write from another process may still land during the batch, and on Apple
    /// platforms a crash may leave part of it written, so write migrations that can run twice
    /// (see <doc:PlatformNotes>).
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
        // Drops the cached domain (every commit saved already) to read other processes' batches.
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
