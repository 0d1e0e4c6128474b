/// Many changes to a store applied as one: the values a ``TransactionalStore/batch(_:)`` body
/// reads and changes.
///
/// You get a `StoreBatch` inside ``TransactionalStore/batch(_:)`` (``FileStore/batch(_:)``)
/// and inside each `Migration`'s transform. It holds the store's current values; what you
/// change in it is written, all at once, when the body returns.
///
/// ```swift
/// try store.batch { batch in
///     batch["autoReload"] = .bool(true)
///     batch["theme"] = .string("dark")
///     batch["lastOpened"] = nil
/// }
/// ```
///
/// A value type with no locks of its own: use it only inside the body that received it.
public struct StoreBatch {
    var values: [String: StoredValue]
    let original: [String: StoredValue]
    var touchedKeys: Set<String> = []
    /// The first invalid key a subscript write met: the batch throws it once the body returns.
    package var invalidKey: StorageError?

    init(values: [String: StoredValue]) {
        self.values = values
        self.original = values
    }

    /// The value of `key`, including changes made earlier in the batch; setting `nil`
    /// removes the key. An invalid key makes the batch throw ``StorageError/Code/invalidKey``
    /// and write nothing.
    public subscript(key: String) -> StoredValue? {
        get { values[key] }
        set {
            do {
                try setValue(newValue, forKey: key)
            } catch let error as StorageError {
                if invalidKey == nil { invalidKey = error }
            } catch {}
        }
    }

    /// Sets or (for `nil`) removes the value of `key`.
    ///
    /// - Throws: ``StorageError/Code/invalidKey`` for an empty key or one with control
    ///   characters, or one canonically equivalent to a stored key of other scalars.
    public mutating func setValue(_ value: StoredValue?, forKey key: String) throws {
        try StorageError.validate(key: key)
        try checkNoCanonicallyEquivalentKey(key, in: values)
        values[key] = value
        touchedKeys.insert(key)
    }

    /// Moves the value of `oldKey` to `newKey`, replacing what `newKey` held, and removes
    /// `oldKey`: the eager form of a `KeyRename`. Nothing happens when `oldKey` holds no
    /// value (a store that was migrated already, or never held it).
    ///
    /// - Returns: Whether a value was moved.
    /// - Note: An invalid `newKey` makes the batch throw ``StorageError/Code/invalidKey``, as
    ///   the subscript does.
    @discardableResult
    public mutating func moveValue(fromKey oldKey: String, toKey newKey: String) -> Bool {
        guard oldKey != newKey, let value = values[oldKey] else { return false }
        self[newKey] = value
        self[oldKey] = nil
        return true
    }

    /// Every key, including changes made earlier in the batch.
    public var keys: [String] { Array(values.keys) }

    /// The keys whose values differ from the store's, in no particular order.
    var changedKeys: [String] {
        touchedKeys.filter { key in
            !original[key].isIdentical(to: values[key])
        }
    }
}
