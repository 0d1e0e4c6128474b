extension FileStore: ChangeSnapshotting {
    /// The value of `key` and a stream of every later change to it, as one step: the file's
    /// values are committed and published under the same lock, whether this process wrote
    /// them or the file watcher found them.
    public func subscription(readingValueForKey key: String) -> KeySubscription {
        let (value, stream, continuation) = subscribe(readingValueForKey: key)
        return KeySubscription(value: value, (stream, continuation))
    }

    /// Calls `onChange` with each change to the keys passed to the subscription's `follow`,
    /// whether this process wrote it or the file watcher found it, once the writer or the
    /// watcher holds no lock of this store.
    public func keySetSubscription(onChange: @escaping @Sendable (StoredChange) -> Void) -> KeySetSubscription {
        let subscription = keyHandlerSubscription()
        return KeySetSubscription(follow: { subscription.follow($0, onChange) }, end: subscription.end)
    }
}

extension FileStore {
    /// A subscription to a set of keys with a handler per key, for the Observation relay of a
    /// store (`StoreObservation`): each key's handler announces to its subject directly.
    struct KeyHandlerSubscription: Sendable {
        /// Calls `onChange` with each change to `key` committed after this returns, once the
        /// committing thread holds no lock of the store; a key followed already keeps its handler.
        var follow: @Sendable (_ key: String, _ onChange: @escaping @Sendable (StoredChange) -> Void) -> Void
        /// Ends the subscription: no change committed afterwards reaches a handler.
        var end: @Sendable () -> Void
    }
}
