extension Stored {
    /// The current value, then the value after each committed change to the key, in order.
    ///
    /// Every write is seen, whoever makes it: this wrapper, another wrapper or settings value
    /// on the same store, the store's own API, or (for `FileStore`) another process, as far as
    /// the store's ``Storable/changes()`` delivers them. A write of the value the key already
    /// holds yields nothing; a removal yields the default. Keys are compared as whole strings,
    /// so dots, slashes, `@`, spaces and emoji need no escaping.
    ///
    /// The stream keeps only the newest value: a consumer slower than the writers gets the
    /// latest value when it next asks, not a backlog. Ending the iteration, dropping the
    /// stream, or cancelling the consuming task releases the subscription to the store.
    ///
    /// ```swift
    /// for await enabled in settings.$autoReload.updates {
    ///     print("autoReload is now", enabled)
    /// }
    /// ```
    ///
    /// Consumers run in their own task, never under a store's lock: the loop body may read and
    /// write settings, this one included (a write it makes is yielded to it in turn).
    ///
    /// A stored value that does not decode yields the default and is reported to
    /// ``StorageErrorReporter`` (to the handler bound where `updates` was read).
    ///
    /// Thread-safety: each read of `updates` makes a new, independent stream; iterate each
    /// stream from one task.
    public var updates: AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // One read, paired with the subscription: the first value and the changes after it
        // neither overlap nor leave a gap (exactly so for stores that can pair them atomically).
        let subscription = store.keySubscription(forKey: key)
        let initial = subscription.value
        continuation.yield(value(from: initial))
        let wrapper = self
        let task = Task {
            var last = initial
            for await change in subscription.changes where change.key == wrapper.key {
                if last.isIdentical(to: change.value) { continue }
                last = change.value
                if case .terminated = continuation.yield(wrapper.value(from: change.value)) { break }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in
            // Release the store's subscription now, not when the loop's task next runs: a task
            // not yet scheduled would keep receiving (and buffering) every change meanwhile.
            subscription.end()
            task.cancel()
        }
        return stream
    }

    /// `stored` decoded, or the default (reporting the failure) when it does not decode.
    private func value(from stored: StoredValue?) -> Value {
        guard let stored = stored ?? store.registeredValue(forKey: key) else { return defaultValue }
        do {
            return try setting.codec.decode(stored)
        } catch {
            StorageErrorReporter.report(storageError(error))
            return defaultValue
        }
    }
}

extension Storable {
    /// The value of `key` now and a stream of every change after it, for every follower of one
    /// setting (``Stored/updates``, `@LiveSetting`): a subscription to the key alone where the
    /// store can pair it with the read (``ChangeSnapshotting``; on Apple platforms a
    /// `UserDefaultsStore` then hears other processes write the key), else a subscription to
    /// every change, which the follower filters.
    package func keySubscription(forKey key: String) -> KeySubscription {
        if let store = self as? any ChangeSnapshotting {
            return store.subscription(readingValueForKey: key)
        }
        // Subscribe first, so no change can fall between; a change that races with the read
        // may then be both in the first value and in the stream, and is skipped as a repeat.
        // The subscription ends when its consumer stops.
        let changes = changes()
        return KeySubscription(value: value(forKey: key), changes: changes, end: {})
    }
}
