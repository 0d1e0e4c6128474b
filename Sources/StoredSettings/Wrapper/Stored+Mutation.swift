/// One in-place mutation in progress (`settings.count += 1`): the value handed to the caller,
/// what it started from, and why it must not be written, when it must not.
struct InPlaceMutation<Value> {
    /// The value the caller changes in place.
    var value: Value
    /// The value the mutation started from, to tell whether the mutation changed anything.
    let original: Value
    /// The stored form the mutation started from as the store held it (`nil` when the key
    /// held nothing), or the default's encoded form when the key held nothing.
    let start: StoredValue?
    /// Why the result must not be written: the start was a fallback, not the stored value.
    let failure: StorageError?
}

extension Stored {
    /// Writes `value` without waiting for the medium: for a ``FileStore``, the change is in
    /// memory, visible to every reader of the store and delivered to observers, when this
    /// returns, and the store's background writer writes the file
    /// (``FileStore/setValueInBackground(_:forKey:)``); other stores write as ``save(_:)`` does.
    ///
    /// What a setter on an app's main thread calls: `@LiveSetting` and its `Binding` write
    /// through it. Changes made in quick succession (a slider's steps) are written together.
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

    /// The start of an in-place mutation: the value an ``update(_:)`` body would start from.
    ///
    /// The stored value is read with an update that changes nothing, so the mutation starts
    /// from exactly what ``Storable/update(forKey:_:)`` hands its body: for a ``LayeredStore``
    /// the writable layer's value (or a lower layer's), never an environment or command-line
    /// override. When that value does not decode, or cannot be read, the mutation starts from
    /// the default and carries the error, so its result is not written.
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

    /// The end of an in-place mutation: writes its result, unless it started from a fallback
    /// or changed nothing. Failures go to ``StorageErrorReporter``.
    ///
    /// The write is an update that refuses to replace stored data that does not decode (data
    /// another writer left since the mutation started), so unreadable data is only ever
    /// replaced by a plain assignment.
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

    /// The decoded form of the array `stored`: the value the last mutation kept for that very
    /// array (the same buffer: what the store holds is what the mutation wrote or started
    /// from, not another writer's array of equal contents), else decoded (and kept). Decoding
    /// a large set or array costs as much as encoding it, so a run of in-place changes decodes
    /// only its first start. Only for an ``ExactStoredForm`` `Value`, whose written array
    /// decodes back to exactly the value kept.
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
    /// Whether the mutation changed the value, given the result's encoded form.
    ///
    /// The result is compared in canonical form, so a value spelled otherwise in the medium
    /// (`"yes"` for `true`) is not rewritten by a mutation that changes nothing: identical to
    /// the stored form means unchanged; otherwise a value whose type is `Equatable` and that
    /// differs from the original has changed (no second encoding, which for a large `Set`
    /// means no second sort); otherwise the original's encoded form decides.
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
