/// One in-place mutation in progress (`settings.count += 1`).
struct InPlaceMutation<Value> {
    /// The value the caller changes in place.
    var value: Value
    /// The value it started from, to tell whether anything changed.
    let original: Value
    /// The stored form it started from, or the default's encoded form when the key held nothing.
    let start: StoredValue?
    /// Why the result must not be written: the start was a fallback, not the stored value.
    let failure: StorageError?
}

extension Stored {
    /// Writes `value` without waiting for the medium, for setters on an app's main thread
    /// (`@LiveSetting` writes through it).
    ///
    /// For a ``BackgroundWritableStore`` such as ``FileStore`` the change is committed in memory
    /// and delivered when this returns, and the medium is written later; other stores write as
    /// ``save(_:)`` does.
    ///
    /// - Throws: What the store refuses at once: ``StorageError/Code/encodingFailed``,
    ///   ``StorageError/Code/invalidKey``, ``StorageError/Code/tooLarge``, or what ``save(_:)``
    ///   throws for other stores. A failed background write goes to ``StorageErrorReporter``.
    ///
    /// Thread-safety: may be called from any thread.
    public func saveWithoutWaiting(_ value: Value) throws {
        do {
            let stored = try setting.codec.encode(value)
            if let store = store as? any BackgroundWritableStore {
                try store.setValueInBackground(stored, forKey: key)
            } else {
                try store.setValue(stored, forKey: key)
            }
        } catch {
            throw storageError(error)
        }
    }

    /// The start of an in-place mutation: the value an ``update(_:)`` body would start from,
    /// read with an update that changes nothing (so never a layered store's override). When it
    /// does not decode, the mutation starts from the default and carries the error.
    func beginMutation() -> InPlaceMutation<Value> {
        var stored: StoredValue?
        do {
            try store.update(forKey: key) { stored = $0 }
        } catch {
            return InPlaceMutation(
                value: defaultValue, original: defaultValue, start: nil, failure: notSaved(storageError(error)))
        }
        guard let stored = stored ?? store.registeredValue(forKey: key) else {
            return InPlaceMutation(
                value: defaultValue, original: defaultValue, start: try? setting.codec.encode(defaultValue),
                failure: nil)
        }
        do {
            let value: Value
            if case .array = stored, setting.keepsMutatedValues {
                value = try arrayMutationStart(stored)
            } else {
                value = try setting.codec.decode(stored)
            }
            return InPlaceMutation(value: value, original: value, start: stored, failure: nil)
        } catch {
            return InPlaceMutation(
                value: defaultValue, original: defaultValue, start: nil, failure: notSaved(storageError(error)))
        }
    }

    /// The end of an in-place mutation: writes its result unless it started from a fallback or
    /// changed nothing; refuses to replace data that no longer decodes (only a plain assignment
    /// replaces unreadable data). Failures go to ``StorageErrorReporter``.
    func finishMutation(_ mutation: InPlaceMutation<Value>) {
        if let failure = mutation.failure {
            StorageErrorReporter.report(failure)
            return
        }
        do {
            let encoded = try setting.codec.encode(mutation.value)
            guard try mutation.changedValue(encoded: encoded, encode: setting.codec.encode) else { return }
            try store.update(forKey: key) { stored in
                // Data identical to the start decoded then; only other data needs the check.
                if let current = stored, !(mutation.start.map(current.isIdentical(to:)) ?? false) {
                    do {
                        _ = try setting.codec.decode(current)
                    } catch {
                        throw notSaved(storageError(error))
                    }
                }
                stored = encoded
            }
            if setting.keepsMutatedValues, let encoded, case .array = encoded {
                cache.store(mutated: mutation.value, storedAs: encoded)
            }
        } catch {
            StorageErrorReporter.report(storageError(error))
        }
    }

    /// The decoded array `stored`: the value the last mutation kept for that very buffer, else
    /// decoded and kept, so a run of in-place changes decodes once. Only for an
    /// ``ExactStoredForm`` `Value`, whose written array decodes back to exactly that value.
    private func arrayMutationStart(_ stored: StoredValue) throws -> Value {
        var value = defaultValue
        if cache.lookup(mutationStart: stored, into: &value) { return value }
        value = try setting.codec.decode(stored)
        cache.store(mutated: value, storedAs: stored)
        return value
    }

    /// `error` saying that the in-place change it stopped was not saved.
    private func notSaved(_ error: StorageError) -> StorageError {
        var error = error
        let note =
            "the in-place change was not saved and the stored data was left as it is (assign a whole new value to replace it)"
        error.message = error.message.map { $0 + "; " + note } ?? note
        return error
    }
}

extension InPlaceMutation {
    /// Whether the mutation changed the value, given the result's encoded form: unchanged when
    /// identical to the stored form; else changed when `Equatable` and unequal to the original
    /// (saving a second encoding); else the original's encoded form decides. So `"yes"` read as
    /// `true` is not rewritten by a mutation that changes nothing.
    func changedValue(encoded: StoredValue?, encode: (Value) throws -> StoredValue?) throws -> Bool {
        if start.isIdentical(to: encoded) { return false }
        if let original = original as? any Equatable, !original.isEqual(to: value) { return true }
        return !(try encode(original)).isIdentical(to: encoded)
    }
}

extension Equatable {
    /// Whether `other` is a value of this type equal to `self`.
    fileprivate func isEqual(to other: Any) -> Bool {
        (other as? Self).map { $0 == self } ?? false
    }
}
