import Foundation

/// A store that reads through several stores in order and writes to one of them: the store
/// of a command-line tool whose settings come from the environment, the command line, a file
/// and the defaults in code.
///
/// ```swift
/// let file = try FileStore(application: "daybook")
/// let store = LayeredStore(
///     [EnvironmentStore(prefix: "DAYBOOK"), CommandLineStore(arguments: ["--set", "theme=dark"]), file],
///     writingTo: file
/// )
/// let settings = AppSettings(store: store)
/// ```
///
/// ## Reading
///
/// The first layer that holds a key wins; when none does, the setting reads its default.
/// ``origin(forKey:)`` names the winning layer's source in words. A value in a higher layer
/// that does not decode is an error naming that source (the ``Stored`` getter reports it and
/// returns the default): it is never silently replaced by a lower layer's value.
///
/// ## Writing
///
/// Writes go to the writable layer only, and keep its guarantees (`FileStore`: on disk,
/// atomically, before returning). If the writable layer is not among `layers`, it is read
/// after all of them. A higher layer that holds the key still wins after the write: an
/// environment variable overrides the file, as users expect. That is the one exception to the
/// read-after-write rule of ``Storable``.
///
/// ``update(forKey:_:)`` runs atomically on the writable layer, and its `body` starts from the
/// value that layer would show if nothing above it overrode the key: the writable layer's own
/// value, else the first layer below it that holds one. Layers above the writable one are
/// overrides for this run (the environment, the command line): `body` never sees their values,
/// so an override is never carried into storage by an update (`update { $0 += 1 }` under
/// `APP_COUNT=1000` counts on in the file; reads keep returning 1000 while the variable is
/// set). In-place mutation through ``Stored`` (`settings.count += 1`) starts from the same
/// value. Only an explicit assignment writes a value taken from an override.
///
/// ## Field overrides
///
/// Single fields of structured settings that layers give on their own (`APP_LAYOUT_INDENT=4`
/// from a declared `EnvironmentStore` or `CommandLineStore`, StoredSettingsCommandLine) are
/// merged over the value below; `LayeredStore.init(_:writingTo:declaredBy:)` gives the rules.
///
/// ## Observing
///
/// ``changes()`` merges the layers' changes and delivers a change only when the value a read
/// returns changes: a write to the file under an environment override delivers nothing.
///
/// Thread-safety: every member may be used from any thread or task.
public final class LayeredStore: OriginDescribingStore {
    /// The layers, highest priority first (the writable layer included).
    public let layers: [any Storable]
    /// The layer that receives every write.
    public let writable: any Storable
    /// How reads merge the layers when a tool's declarations say more than "the first layer
    /// holding a key wins" (StoredSettingsCommandLine's field overrides); `nil`: it does.
    package let merging: (any LayerMerging)?
    /// The layers' own warnings, found when the store was made (``DiagnosingStore``).
    package let layerWarnings: [StorageError]
    /// The layers' revisions at the last read, the number ``valueWithRevision(forKey:)`` gave
    /// them, and the values read at that number by key (field overrides merged once).
    private let readRevisions = Lock<(layers: [UInt64], number: UInt64, values: [String: StoredValue?])>(([], 0, [:]))

    /// Creates a store reading `layers` in order and writing to `writable`.
    ///
    /// - Parameters:
    ///   - layers: The stores to read, highest priority first.
    ///   - writable: The store that receives writes; usually one of `layers` (identity
    ///     decides). When it is not, it is read after all of them.
    public convenience init(_ layers: [any Storable], writingTo writable: any Storable) {
        self.init(layers, writingTo: writable) { all in
            all.lazy.compactMap { $0 as? any MergingLayer }.first?.merging(over: all)
        }
    }

    /// Creates a store whose reads merge the layers as `merging` makes out of them (all of
    /// them, the writable one included), first hit wins when it makes `nil`.
    package init(
        _ layers: [any Storable], writingTo writable: any Storable,
        merging: ([any Storable]) -> (any LayerMerging)?
    ) {
        self.writable = writable
        let all = layers.contains(where: { $0 === writable }) ? layers : layers + [writable]
        self.layers = all
        self.merging = merging(all)
        layerWarnings = all.flatMap { ($0 as? any DiagnosingStore)?.warnings ?? [] }
    }

    /// The value reads return for `key`, given each of `count` layers' own value by position.
    static func mergedValue(
        forKey key: String, count: Int, _ merging: (any LayerMerging)?, layerValue: (Int) -> StoredValue?
    ) -> StoredValue? {
        if let merging { return merging.value(forKey: key, layerValue: layerValue) }
        for index in 0..<count {
            if let value = layerValue(index) { return value }
        }
        return nil
    }

    /// The first layer holding `key`: the one whose value reads return; `nil` when none does.
    package func layer(holding key: String) -> (any Storable)? {
        layers.first { $0.value(forKey: key) != nil }
    }

    /// The value of the first layer that holds `key` (with field overrides merged, see "Field
    /// overrides" above).
    public func value(forKey key: String) -> StoredValue? {
        Self.mergedValue(forKey: key, count: layers.count, merging) { layers[$0].value(forKey: key) }
    }

    /// The first value a layer registered for `key` (``Storable/registeredValue(forKey:)``).
    public func registeredValue(forKey key: String) -> StoredValue? {
        for layer in layers {
            if let value = layer.registeredValue(forKey: key) { return value }
        }
        return nil
    }

    /// ``value(forKey:)`` with a revision that changes whenever a layer's does, so ``Stored``
    /// keeps a decoded value while no layer changes; `nil` when a layer keeps no revision.
    ///
    /// The revision numbers the combinations of the layers' revisions in the order reads meet
    /// them: one combination may get several numbers, but one number never names two.
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: layers.count) { revisions in
            var base: (index: Int, value: StoredValue)?
            for (index, layer) in layers.enumerated() {
                let (value, revision) = layer.valueWithRevision(forKey: key)
                guard let revision else { return (self.value(forKey: key), nil) }
                revisions[index] = revision
                if base == nil, let value { base = (index, value) }
            }
            let (number, kept) = readRevisions.withLock { seen in
                if !seen.layers.elementsEqual(revisions) {
                    seen.layers = Array(revisions)
                    seen.number += 1
                    seen.values.removeAll(keepingCapacity: true)
                }
                return (seen.number, seen.values[key])
            }
            if let kept { return (kept, number) }
            let value = Self.mergedValue(forKey: key, count: layers.count, merging) {
                $0 == base?.index ? base?.value : nil
            }
            readRevisions.withLock { seen in
                if seen.number == number { seen.values[key] = value }
            }
            return (value, number)
        }
    }

    /// Writes to the writable layer.
    ///
    /// - Throws: What the writable layer throws; nothing changes then.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        try writable.setValue(value, forKey: key)
    }

    /// Reads the persistent value of `key`, lets `body` change it, and writes the result to the
    /// writable layer, atomically with respect to that layer.
    ///
    /// `body` starts from the writable layer's value, else the value of the first layer below
    /// it that holds one, else `nil`: the value of layers above the writable one (overrides
    /// for this run) is never passed in, so it never reaches the writable layer through an
    /// update. Reads still return the override afterwards.
    ///
    /// Nothing is written when `body` leaves the value as it was. Setting it to `nil` removes
    /// the key from the writable layer (a lower or higher layer may still hold it). A
    /// ``StorageError`` that `body` throws without a path gets the origin of the layer the
    /// value came from.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or what the writable layer throws; nothing changes then.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        let writableIndex = layers.firstIndex { $0 === writable } ?? layers.count - 1
        let lower = layers[(writableIndex + 1)...]
        return try writable.update(forKey: key) { stored in
            var start = stored
            var source: (any Storable)? = stored == nil ? nil : writable
            for layer in lower where start == nil {
                start = layer.value(forKey: key)
                source = start == nil ? nil : layer
            }
            var value = start
            let result: R
            do {
                result = try body(&value)
            } catch var error as StorageError where error.location == nil {
                // A value that does not decode is named by the layer it came from, before
                // the writable layer adds its own location.
                if let source {
                    error.location =
                        source === writable ? source.describedLocation : source.describedOrigin(forKey: key)
                }
                throw error
            }
            if !start.isIdentical(to: value) { stored = value }
            return result
        }
    }

    /// Every key any layer holds, each once.
    public func keys() -> [String] {
        var seen = Set<String>()
        return layers.flatMap { $0.keys() }.filter { seen.insert($0).inserted }
    }

    /// The writable layer's location, which writes name in their errors.
    public var location: String? { writable.location }

    /// Where the value reads return comes from: the origin words of the first layer holding
    /// `key` (`environment variable APP_AUTO_RELOAD`, `--set autoReload=… on the command
    /// line`), `file <path>` for a file layer (`~` for the home folder); `nil` when no layer
    /// holds the key, so the default applies.
    ///
    /// Merged field overrides add their fields' sources, by field path, after `; `:
    /// `file ~/.config/app/settings.json; indent: environment variable APP_LAYOUT_INDENT`, or
    /// `default; indent: …` when no layer holds the whole value.
    public func origin(forKey key: String) -> String? {
        let base = layer(holding: key)?.describedOrigin(forKey: key)
        let fields = merging?.fieldOrigins(forKey: key) { layers[$0].value(forKey: key) != nil } ?? []
        guard !fields.isEmpty else { return base }
        return ([base ?? "default"] + fields.map { "\($0.path): \($0.origin)" }).joined(separator: "; ")
    }
}

/// How a ``LayeredStore`` reads one key over its layers beyond "the first layer holding it
/// wins": StoredSettingsCommandLine merges field overrides this way.
package protocol LayerMerging: Sendable {
    /// The value reads return for `key`, given each layer's own value by position.
    func value(forKey key: String, layerValue: (Int) -> StoredValue?) -> StoredValue?
    /// The sources of the merged fields of `key`, by field path, given whether each layer (by
    /// position) holds the key; empty when none is merged.
    func fieldOrigins(forKey key: String, holds: (Int) -> Bool) -> [(path: String, origin: String)]
}

/// A layer that gives more than whole values (StoredSettingsCommandLine's field overrides): a
/// ``LayeredStore`` over it reads with the merging it makes.
/// A layer that checks its input once, when it is made, and keeps what it found: a layered
/// store keeps every layer's ``warnings``, and `CommandLineSettings` stops on every layer's
/// ``errors``.
package protocol DiagnosingStore: Storable {
    /// Input that cannot be used, in order: nothing of it was applied.
    var errors: [StorageError] { get }
    /// Input that is used or ignored but is probably a mistake, in order.
    var warnings: [StorageError] { get }
}

package protocol MergingLayer: Storable {
    /// How a layered store over `layers` (this layer among them) merges them.
    func merging(over layers: [any Storable]) -> any LayerMerging
}
