/// A backend that keeps ``StoredValue``s under string keys: the protocol every store conforms
/// to, and the one to implement for a backend of your own (see <doc:ImplementingABackend>).
///
/// ## The contract every conformer keeps
///
/// - **Thread-safety.** Every method may be called from any thread or task, concurrently.
/// - **Read after write.** Once a write returns, every later ``value(forKey:)`` on the same
///   instance returns the new value.
/// - **Missing keys.** ``value(forKey:)`` returns `nil` for a key that holds nothing;
///   removing an absent key is not an error.
/// - **A failed write changes nothing**, in memory or in the medium.
/// - **Atomic updates.** No other write lands inside ``update(forKey:_:)``. The body may read
///   the store; a write to the same store from the body throws
///   ``StorageError/Code/reentrantWrite``.
/// - **Change delivery.** ``changes()`` delivers every committed change the store can observe
///   from the moment it returns, once, in the same commit order to every subscriber, with an
///   unbounded buffer, to consumers outside the store's locks; a write of the same value, or a
///   failed one, delivers nothing.
/// - **Keys.** Every non-empty key without control characters works (dots, slashes, spaces,
///   emoji); others throw ``StorageError/Code/invalidKey`` from writes.
///
/// `StoreConformance` in `StoredSettingsTestSupport` checks the contract; run it on your backend.
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
    /// step; `nil` removes the key. Nothing is written when `body` throws or changes nothing.
    ///
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or what the write throws; nothing is written then.
    func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R

    /// A stream of every change committed from now on, in order, each once.
    ///
    /// Each call returns a new, independent stream; ending the iteration releases it.
    func changes() -> AsyncStream<StoredChange>

    /// The value of `key` and a revision that grows with every commit of the store, read as
    /// one step; `nil` revision when the store keeps none. ``Stored`` skips decoding again
    /// while the revision is unchanged. Default: `(value(forKey:), nil)`.
    func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?)

    /// The value reads fall back to while `key` holds nothing: a default registered with the
    /// medium (UserDefaults' `register(defaults:)`), read by ``Stored`` above its own default
    /// but never a stored value. Default: `nil`.
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
/// own, for ``Stored/saveWithoutWaiting(_:)``. ``FileStore`` conforms.
///
/// Thread-safety: called from any thread.
public protocol BackgroundWritableStore: Storable {
    /// Commits `value` under `key` (`nil` removes it) in memory, visible and delivered at
    /// once, and queues the write of the medium without waiting for it.
    ///
    /// - Throws: At once, only what the medium could never hold (an invalid key, a value too
    ///   large or of no stored form); a failure of the later write goes to
    ///   ``StorageErrorReporter``.
    func setValueInBackground(_ value: StoredValue?, forKey key: String) throws
}

extension FileStore: BackgroundWritableStore {}
