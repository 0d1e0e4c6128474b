extension Stored {
    /// The current value, then the value after each committed change to the key, in order.
    ///
    /// Every write the store observes is seen, whoever makes it; a write of the same value
    /// yields nothing, a removal yields the default. Only the newest value is buffered. Ending
    /// the iteration, dropping the stream or cancelling its task releases the subscription.
    /// The loop body runs outside every lock and may write settings. A value that does not
    /// decode yields the default and is reported to ``StorageErrorReporter`` (the handler bound where `updates` was read). See
    /// <doc:Observation>.
    ///
    /// ```swift
    /// for await enabled in settings.$autoReload.updates {
    ///     print("autoReload is now", enabled)
    /// }
    /// ```
    ///
    /// Thread-safety: each read makes a new, independent stream; iterate each from one task.
    public var updates: AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // The first value and the later changes neither overlap nor leave a gap.
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
            // Released now, not when the loop's task next runs, which would buffer meanwhile.
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
    /// The value of `key` now and every change after it, for ``Stored/updates`` and
    /// `@LiveSetting`: by key where the store is ``ChangeSnapshotting``, else every change.
    package func keySubscription(forKey key: String) -> KeySubscription {
        if let store = self as? any ChangeSnapshotting {
            return store.subscription(readingValueForKey: key)
        }
        // Subscribed first, so no change falls between; a change seen twice is skipped as a
        // repeat.
        let changes = changes()
        return KeySubscription(value: value(forKey: key), changes: changes, end: {})
    }
}
