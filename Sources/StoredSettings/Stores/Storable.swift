/// A backend that keeps ``StoredValue``s under string keys: the protocol every store conforms
/// to, and the one to implement for a backend of your own.
///
/// The package ships `UserDefaultsStore`, `FileStore`, `EnvironmentStore`, `CommandLineStore`
/// and `LayeredStore`; the `StoredSettingsTestSupport` library adds test doubles. ``Stored``
/// settings read and write through this protocol only.
///
/// ## The contract every conformer keeps
///
/// - **Thread-safety.** Every method may be called from any thread or task, concurrently.
/// - **Read after write.** Once ``setValue(_:forKey:)`` or ``update(forKey:_:)`` returns, every
///   later ``value(forKey:)`` on the same instance returns the new value.
/// - **Missing keys.** ``value(forKey:)`` returns `nil` for a key that holds nothing;
///   `setValue(nil, forKey:)` removes the key and is not an error when it is already absent.
/// - **A failed write changes nothing.** When a write throws, the previous value stays, in
///   memory and in the medium.
/// - **Atomic updates.** ``update(forKey:_:)`` reads, runs the body and writes as one step: no
///   other write to the store lands between. The body may read the store; a write to the same
///   store from inside the body (a `setValue`, a nested `update`) throws
///   ``StorageError/Code/reentrantWrite`` rather than waiting for the lock the update holds or
///   being overwritten by the update's result.
/// - **Change delivery.** ``changes()`` delivers every committed change, once, in commit order,
///   whoever committed it (any instance on the same medium that the store can observe; each
///   backend documents what it observes); every subscriber sees the same order. A write of the
///   value a key already holds, and a failed write, deliver nothing. The subscription is in
///   place when `changes()` returns; the stream's buffer is unbounded, so nothing is dropped.
///   Consumers run in their own tasks, never under the store's locks, so they may read and
///   write the store. Ending the iteration, dropping the stream or cancelling its task
///   releases the subscription.
/// - **Keys.** Every non-empty key without control characters works (dots, slashes, spaces,
///   emoji); others throw ``StorageError/Code/invalidKey`` from writes.
///
/// The conformance checks that every shipped backend passes are in `StoreConformance` in the
/// `StoredSettingsTestSupport` library; run them against your own backend.
public protocol Storable: AnyObject, Sendable {
    /// The value stored under `key`, or `nil` when the key holds nothing.
    ///
    /// - Complexity: Expected O(1) for the shipped stores; it never touches a disk.
    func value(forKey key: String) -> StoredValue?

    /// Stores `value` under `key`, or removes the key when `value` is `nil`.
    ///
    /// When it returns, the value is committed: for `FileStore`, on disk.
    ///
    /// - Throws: ``StorageError`` (``StorageError/Code/invalidKey``,
    ///   ``StorageError/Code/readOnly``, ``StorageError/Code/io``,
    ///   ``StorageError/Code/encodingFailed``); the previous value then stays.
    func setValue(_ value: StoredValue?, forKey key: String) throws

    /// Every key that holds a value, in no particular order.
    func keys() -> [String]

    /// Reads the value of `key`, lets `body` change it, and writes the result, as one atomic
    /// step.
    ///
    /// Set the `inout` value to `nil` to remove the key. When `body` throws, nothing is
    /// written. When `body` leaves the value as it was, nothing is written and no change is
    /// delivered.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or what the write throws; nothing is written then.
    func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R

    /// A stream of every change committed from now on, in order, each once.
    ///
    /// Each call returns a new, independent stream. Ending the iteration (or cancelling the
    /// task that iterates) releases the subscription.
    func changes() -> AsyncStream<StoredChange>

    /// The value of `key` together with a revision number that grows whenever the store
    /// commits any change, read as one step; `nil` revision when the store keeps none.
    ///
    /// ``Stored`` uses the revision to keep decoded values: while the revision stays the same,
    /// a repeated read does not decode again. The default implementation returns
    /// `(value(forKey:), nil)`, which disables that cache.
    func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?)

    /// The value reads fall back to while `key` holds nothing: a default registered with the
    /// medium itself (UserDefaults' `register(defaults:)`); `nil` when there is none.
    ///
    /// ``Stored`` reads it below the stored value and above its own default, as
    /// `UserDefaults.object(forKey:)` does. It is not a stored value: ``Stored/hasStoredValue``
    /// stays `false` and nothing writes it. Default: `nil`.
    func registeredValue(forKey key: String) -> StoredValue?

    /// Where the store keeps its values, for error messages: a file path, a UserDefaults
    /// domain, `environment`; `nil` when there is nothing useful to say. Default: `nil`.
    var location: String? { get }
}

extension Storable {
    /// `(value(forKey: key), nil)`: no revision, so decoded values are not cached.
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        (value(forKey: key), nil)
    }

    /// `nil`: the medium registers no defaults.
    public func registeredValue(forKey key: String) -> StoredValue? { nil }

    /// `nil`: no location to name in error messages.
    public var location: String? { nil }
}

/// A change committed to a store: the key and its new value, `nil` when the key was removed.
public struct StoredChange: Sendable, Equatable, Hashable {
    /// The key that changed.
    public var key: String
    /// The new value, or `nil` when the key was removed.
    public var value: StoredValue?

    /// Creates a change record.
    public init(key: String, value: StoredValue?) {
        self.key = key
        self.value = value
    }
}

/// A store that can commit a write in memory and write its medium later, on a thread of its
/// own: ``Stored/saveWithoutWaiting(_:)`` (and so `@LiveSetting`) writes through it where the
/// store conforms. ``FileStore`` does.
///
/// Thread-safety: called from any thread.
public protocol BackgroundWritableStore: Storable {
    /// Commits `value` under `key` (`nil` removes it) in memory, visible to every reader and
    /// delivered to observers at once, and queues the write of the medium, without waiting for
    /// a lock another process holds or for the disk.
    ///
    /// - Throws: At once, only what the medium could never hold (an invalid key, a value too
    ///   large or of no stored form); a failure of the later write goes to
    ///   ``StorageErrorReporter``.
    func setValueInBackground(_ value: StoredValue?, forKey key: String) throws
}

extension FileStore: BackgroundWritableStore {}
