extension Stored {
    /// The current value, then the value after each committed change to the key, in order.
    ///
    /// Every write is seen, whoever makes it: this wrapper, another wrapper or settings value
    /// on the same store, the store's own API, or (for `FileStore`) another process. A write of
    /// the value the key already holds yields nothing; a removal yields the default. A consumer
    /// slower than the writers gets the newest value rather than a backlog. Ending the
    /// iteration, or cancelling its task, releases the subscription.
    ///
    /// ```swift
    /// for await enabled in settings.$autoReload.updates {
    ///     print("autoReload is now", enabled)
    /// }
    /// ```
    ///
    /// A stored value that does not decode yields the default and is reported to
    /// ``StorageErrorReporter``.
    public var updates: AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // Subscribe before reading the current value, so no change can fall in between.
        let changes = store.changes()
        let initial = store.value(forKey: key)
        continuation.yield(currentValue(reporting: true))
        let wrapper = self
        let task = Task {
            var last = initial
            for await change in changes where change.key == wrapper.key {
                switch (last, change.value) {
                case (nil, nil): continue
                case let (old?, new?) where old.isIdentical(to: new): continue
                default: break
                }
                last = change.value
                continuation.yield(wrapper.value(from: change.value))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// `stored` decoded, or the default (reporting the failure) when it does not decode.
    private func value(from stored: StoredValue?) -> Value {
        guard let stored else { return defaultValue }
        do {
            return try codec.decode(stored)
        } catch {
            StorageErrorReporter.report(storageError(error))
            return defaultValue
        }
    }
}
