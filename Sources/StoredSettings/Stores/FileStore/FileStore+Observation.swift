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

extension FileStore: KeyHandlerFollowing {}
