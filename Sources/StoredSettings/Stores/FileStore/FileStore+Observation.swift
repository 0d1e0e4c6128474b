extension FileStore: ChangeSnapshotting {
    /// The value of `key` and a stream of every later change to it, as one step: the file's
    /// values are committed and published under the same lock, whether this process wrote
    /// them or the file watcher found them.
    public func subscription(readingValueForKey key: String) -> KeySubscription {
        storage.subscription(readingValueForKey: key)
    }

    /// One stream of the changes to the keys passed to its `follow`, whether this process
    /// wrote them or the file watcher found them.
    public func keySetSubscription() -> KeySetSubscription {
        storage.keySetSubscription()
    }
}
