public import StoredSettings

/// A store that records every call made to it, then forwards the call to the store it wraps.
///
/// Use it to check what code under test reads and writes:
///
/// ```swift
/// let spy = SpyStore()
/// let settings = AppSettings(store: spy)
/// settings.launchCount = 3
/// #expect(spy.writes == [.setValue(.int(3), key: "launchCount")])
/// ```
///
/// Every ``Storable`` requirement is recorded before it is forwarded, so a call that then fails
/// is recorded too. `value(forKey:)` and `valueWithRevision(forKey:)` (what ``Stored`` reads
/// with) are both recorded as ``Call/value(key:)``; a subscription to one key
/// (``ChangeSnapshotting/subscription(readingValueForKey:)``, or a key followed by
/// ``ChangeSnapshotting/keySetSubscription(onChange:)``) as ``Call/subscription(key:)``, so a test can
/// tell a follower of one key from a follower of every key (``Call/changes``). Where the
/// Observation framework exists, a setting made on the spy follows its key at once (the first
/// setting of each key records `.subscription(key:)`), so compare ``writes`` or
/// ``calls(forKey:)`` rather than the whole log. The log lives in the store object: every
/// reference to the same `SpyStore`, and every setting created on it, shares one log.
///
/// It does not import a test framework, so previews and tools can use it too.
///
/// Thread-safety: every member may be used from any thread or task; calls made concurrently
/// are recorded in the order they took the log's lock.
public final class SpyStore: Storable, ChangeSnapshotting {
    /// One recorded call.
    public enum Call: Sendable, Hashable, CustomStringConvertible {
        /// A read of `key`: `value(forKey:)` or `valueWithRevision(forKey:)`.
        case value(key: String)
        /// `setValue(_:forKey:)` with the value passed (`nil` removes the key).
        case setValue(StoredValue?, key: String)
        /// `keys()`.
        case keys
        /// `update(forKey:_:)` of `key`.
        case update(key: String)
        /// `changes()`: a new subscription to every key's changes.
        case changes
        /// `subscription(readingValueForKey:)` of `key`: a new subscription to one key's
        /// changes, the kind on which `UserDefaultsStore` observes other processes by key.
        case subscription(key: String)

        /// The call as code would spell it: `setValue(.int(3), key: "launchCount")`.
        public var description: String {
            switch self {
            case .value(let key): "value(key: \(key.debugDescription))"
            case .setValue(let value, let key):
                "setValue(\(value.map { String(describing: $0) } ?? "nil"), key: \(key.debugDescription))"
            case .keys: "keys"
            case .update(let key): "update(key: \(key.debugDescription))"
            case .changes: "changes"
            case .subscription(let key): "subscription(key: \(key.debugDescription))"
            }
        }

        /// The key the call is about; `nil` for ``keys`` and ``changes``.
        public var key: String? {
            switch self {
            case .value(let key), .setValue(_, let key), .update(let key), .subscription(let key): key
            case .keys, .changes: nil
            }
        }

        /// Whether the call may change the store: ``setValue(_:key:)`` or ``update(key:)``.
        public var isWrite: Bool {
            switch self {
            case .setValue, .update: true
            case .value, .keys, .changes, .subscription: false
            }
        }
    }

    /// The store every call is forwarded to.
    public let wrapped: any Storable
    private let log = Lock<[Call]>([])

    /// Creates a spy forwarding to `wrapped`.
    ///
    /// - Parameter wrapped: The store that does the work; a fresh ``InMemoryStore`` by default.
    public init(wrapping wrapped: any Storable = InMemoryStore()) {
        self.wrapped = wrapped
    }

    /// Every call so far, oldest first.
    public var calls: [Call] { log.value }

    /// The calls so far that may change the store (``Call/setValue(_:key:)``,
    /// ``Call/update(key:)``), oldest first.
    public var writes: [Call] { calls.filter(\.isWrite) }

    /// The calls so far about `key`, oldest first.
    public func calls(forKey key: String) -> [Call] {
        calls.filter { $0.key == key }
    }

    /// Forgets every recorded call.
    public func removeAllCalls() {
        log.withLock { $0.removeAll() }
    }

    private func record(_ call: Call) {
        log.withLock { $0.append(call) }
    }

    // MARK: - Storable

    /// The wrapped store's location.
    public var location: String? { wrapped.location }

    /// Records ``Call/value(key:)`` and forwards.
    public func value(forKey key: String) -> StoredValue? {
        record(.value(key: key))
        return wrapped.value(forKey: key)
    }

    /// Records ``Call/value(key:)`` and forwards, keeping the wrapped store's revision.
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        record(.value(key: key))
        return wrapped.valueWithRevision(forKey: key)
    }

    /// Records ``Call/setValue(_:key:)`` and forwards.
    ///
    /// - Throws: What the wrapped store throws.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        record(.setValue(value, key: key))
        try wrapped.setValue(value, forKey: key)
    }

    /// Records ``Call/keys`` and forwards.
    public func keys() -> [String] {
        record(.keys)
        return wrapped.keys()
    }

    /// Records ``Call/update(key:)`` and forwards; atomic as the wrapped store's `update`.
    ///
    /// - Throws: What `body` or the wrapped store throws.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        record(.update(key: key))
        return try wrapped.update(forKey: key, body)
    }

    /// Records ``Call/changes`` and forwards.
    public func changes() -> AsyncStream<StoredChange> {
        record(.changes)
        return wrapped.changes()
    }

    /// Records ``Call/subscription(key:)`` and forwards; the read and the subscription are one
    /// step when the wrapped store is ``ChangeSnapshotting``, else it subscribes to every change
    /// first and reads second.
    public func subscription(readingValueForKey key: String) -> KeySubscription {
        record(.subscription(key: key))
        if let wrapped = wrapped as? any ChangeSnapshotting {
            return wrapped.subscription(readingValueForKey: key)
        }
        let changes = wrapped.changes()
        return KeySubscription(value: wrapped.value(forKey: key), changes: changes, end: {})
    }

    /// Forwards; records ``Call/subscription(key:)`` for each key the subscription follows, so
    /// a follower of several keys with one stream is seen following each alone. Over a store
    /// that is not ``ChangeSnapshotting`` the stream delivers every key's changes.
    public func keySetSubscription(onChange: @escaping @Sendable (StoredChange) -> Void) -> KeySetSubscription {
        var subscription =
            (wrapped as? any ChangeSnapshotting)?.keySetSubscription(onChange: onChange)
            ?? KeySetSubscription(following: wrapped.changes(), onChange: onChange)
        // The log, not the store: a subscription kept for the store's lifetime must not keep it.
        let (follow, log) = (subscription.follow, log)
        subscription.follow = { key in
            log.withLock { $0.append(.subscription(key: key)) }
            follow(key)
        }
        return subscription
    }
}
