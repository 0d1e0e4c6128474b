extension LayeredStore {
    /// Every change of the value reads return, from now on, in order.
    ///
    /// The stream subscribes to every layer's ``Storable/changes()``. For each change of a
    /// layer it recomputes the key's value over the layers (using the last value each layer
    /// reported) and delivers a change only when that value differs from the one delivered
    /// before: a change hidden by a higher layer delivers nothing; removing a higher layer's
    /// value delivers the lower layer's. Ending the iteration releases every subscription.
    public func changes() -> AsyncStream<StoredChange> {
        let (stream, continuation) = AsyncStream<StoredChange>.makeStream(bufferingPolicy: .unbounded)
        let layers = self.layers
        // Subscribe first, so no change committed after this call returns is missed.
        let sources = layers.map { $0.changes() }
        let merger = ChangeMerger(layers: layers, merging: merging, continuation: continuation)
        let tasks = sources.enumerated().map { index, source in
            Task {
                for await change in source {
                    merger.receive(change, fromLayer: index)
                }
            }
        }
        continuation.onTermination = { _ in
            for task in tasks { task.cancel() }
        }
        return stream
    }
}

/// Merges the changes of a ``LayeredStore``'s layers into changes of the effective value.
///
/// It keeps what each layer last reported per key, starting from a snapshot of every layer's
/// keys taken when the stream is created. A key a layer has not reported and was not in its
/// snapshot is read from the layer (for the environment and the command line, which list
/// only some of the keys they answer), except for the layer whose change is being handled,
/// which held nothing before.
final class ChangeMerger: Sendable {
    private let layers: [any Storable]
    private let merging: (any LayerMerging)?
    private let continuation: AsyncStream<StoredChange>.Continuation
    /// What each layer last reported per key (`.some(nil)`: removed).
    private let known: Lock<[[String: StoredValue?]]>

    init(
        layers: [any Storable], merging: (any LayerMerging)?, continuation: AsyncStream<StoredChange>.Continuation
    ) {
        self.layers = layers
        self.merging = merging
        self.continuation = continuation
        self.known = Lock(
            layers.map { layer in
                var values: [String: StoredValue?] = [:]
                for key in layer.keys() { values[key] = .some(layer.value(forKey: key)) }
                return values
            })
    }

    func receive(_ change: StoredChange, fromLayer changed: Int) {
        known.withLock { known in
            let key = change.key
            let previous = effectiveValue(forKey: key, in: &known, changedLayer: changed)
            known[changed][key] = .some(change.value)
            let current = effectiveValue(forKey: key, in: &known, changedLayer: changed)
            if previous.isIdentical(to: current) { return }
            // `yield` only enqueues: no consumer code runs under the lock.
            continuation.yield(StoredChange(key: key, value: current))
        }
    }

    /// The value over the layers (field overrides applied), from what they reported.
    private func effectiveValue(
        forKey key: String, in known: inout [[String: StoredValue?]], changedLayer: Int
    ) -> StoredValue? {
        LayeredStore.mergedValue(forKey: key, count: layers.count, merging) { index in
            if let reported = known[index][key] { return reported }
            if index == changedLayer { return nil }
            let value = layers[index].value(forKey: key)
            known[index][key] = .some(value)
            return value
        }
    }
}
