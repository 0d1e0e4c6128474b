extension Stored {
    /// What reads return while the key holds nothing: the store's registered value
    /// (``Storable/registeredValue(forKey:)``) decoded, else the default.
    ///
    /// - Throws: ``StorageError/Code/typeMismatch`` when the registered value does not decode,
    ///   as for a stored value of the wrong type.
    func registeredOrDefaultValue() throws -> Value {
        guard let registered = store.registeredValue(forKey: key) else { return defaultValue }
        do {
            return try setting.codec.decode(registered)
        } catch {
            throw explainingMismatch(storageError(error), of: registered)
        }
    }

    /// The getter's form of ``registeredOrDefaultValue()``: the default when the registered
    /// value does not decode, reported once per value.
    func registeredOrDefaultValue(reporting: Bool) -> Value {
        guard let registered = store.registeredValue(forKey: key) else { return defaultValue }
        do {
            return try setting.codec.decode(registered)
        } catch {
            return fallback(after: error, decoding: registered, reporting: reporting)
        }
    }
}
