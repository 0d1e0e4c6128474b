public import StoredSettings

/// A store whose writes fail on cue: wraps a working store and throws scripted errors for the
/// keys and operations you choose.
///
/// Use it to test how code under test handles a full disk or a read-only file:
///
/// ```swift
/// let store = FailingStore(wrapping: InMemoryStore(["theme": .string("dark")]))
/// store.fail(.setValue, forKey: "theme", with: StorageError(.io, message: "disk full"))
/// let settings = AppSettings(store: store)
/// settings.theme = .light                  // reported, not written
/// #expect(settings.theme == .dark)
/// ```
///
/// A scripted failure throws before anything reaches the wrapped store, so it stays untouched
/// (for ``Operation/update`` the body runs on the current value, as with a real write failure,
/// and its result is thrown away). The thrown error gets the key and the wrapped store's
/// location when the scripted error names none. Reads, `keys()` and `changes()` are forwarded
/// as they are.
///
/// It does not import a test framework, so previews and tools can use it too.
///
/// Thread-safety: every member may be used from any thread or task. Scripting a failure while
/// another task writes affects the writes that start after ``fail(_:forKey:with:times:)``
/// returns.
public final class FailingStore: Storable {
    /// A store operation that can be made to fail.
    public enum Operation: Sendable, Hashable, CaseIterable {
        /// `setValue(_:forKey:)`: the setter, `save(_:)` and `reset()` of ``Stored``.
        case setValue
        /// `update(forKey:_:)`: `update(_:)` of ``Stored``.
        case update
    }

    /// How many calls a scripted failure applies to.
    public enum Repetition: Sendable, Hashable {
        /// Every matching call fails until the failure is removed.
        case always
        /// The next matching call fails; later ones succeed.
        case once
        /// The next `n` matching calls fail (none when `n` is zero or less).
        case count(Int)
    }

    private struct Script {
        var operations: Set<Operation>
        var key: String?
        var error: StorageError
        var remaining: Int?
    }

    /// The store that calls go to when they do not fail.
    public let wrapped: any Storable
    private let scripts = Lock<[Script]>([])
    private let failures = Lock<Int>(0)

    /// Creates a store that forwards to `wrapped` until told to fail.
    ///
    /// - Parameter wrapped: The working store; a fresh ``InMemoryStore`` by default.
    public init(wrapping wrapped: any Storable = InMemoryStore()) {
        self.wrapped = wrapped
    }

    /// Makes matching calls throw `error`.
    ///
    /// When several scripts match a call, the one added first (and not used up) applies.
    ///
    /// ```swift
    /// store.fail(.setValue, .update, forKey: "theme", times: .once)
    /// ```
    ///
    /// - Parameters:
    ///   - operations: The operations that fail; none listed means every operation.
    ///   - key: The key whose calls fail; `nil` for every key.
    ///   - error: The error thrown; by default an ``StorageError/Code/io`` error.
    ///   - repetition: How many matching calls fail: ``Repetition/always`` (the default),
    ///     ``Repetition/once`` or ``Repetition/count(_:)``.
    public func fail(
        _ operations: Operation...,
        forKey key: String? = nil,
        with error: StorageError = StorageError(.io, message: "scripted failure"),
        times repetition: Repetition = .always
    ) {
        let remaining: Int?
        switch repetition {
        case .always: remaining = nil
        case .once: remaining = 1
        case .count(let count): remaining = max(0, count)
        }
        let script = Script(
            operations: operations.isEmpty ? Set(Operation.allCases) : Set(operations),
            key: key, error: error, remaining: remaining
        )
        scripts.withLock { $0.append(script) }
    }

    /// Removes every scripted failure: every call succeeds again.
    public func removeAllFailures() {
        scripts.withLock { $0.removeAll() }
    }

    /// How many calls have failed by script so far.
    public var failureCount: Int { failures.value }

    /// The scripted error for a call, using up one repetition of its script.
    private func scriptedError(for operation: Operation, key: String) -> StorageError? {
        let error: StorageError? = scripts.withLock { scripts in
            guard
                let index = scripts.firstIndex(where: {
                    $0.operations.contains(operation) && ($0.key == nil || $0.key == key) && $0.remaining != 0
                })
            else { return nil }
            if let remaining = scripts[index].remaining { scripts[index].remaining = remaining - 1 }
            return scripts[index].error
        }
        guard var error else { return nil }
        failures.withLock { $0 += 1 }
        if error.key == nil { error.key = key }
        if error.location == nil { error.location = wrapped.location }
        return error
    }

    // MARK: - Storable

    /// The wrapped store's location.
    public var location: String? { wrapped.location }

    /// Forwards to the wrapped store.
    public func value(forKey key: String) -> StoredValue? {
        wrapped.value(forKey: key)
    }

    /// Forwards to the wrapped store.
    public func valueWithRevision(forKey key: String) -> (value: StoredValue?, revision: UInt64?) {
        wrapped.valueWithRevision(forKey: key)
    }

    /// Throws the scripted error for ``Operation/setValue`` and `key`, else forwards.
    ///
    /// - Throws: The scripted error (the wrapped store is not called), or what the wrapped
    ///   store throws.
    public func setValue(_ value: StoredValue?, forKey key: String) throws {
        if let error = scriptedError(for: .setValue, key: key) { throw error }
        try wrapped.setValue(value, forKey: key)
    }

    /// Forwards to the wrapped store.
    public func keys() -> [String] {
        wrapped.keys()
    }

    /// Runs `body` inside the wrapped store's `update`, then throws the scripted error for
    /// ``Operation/update`` and `key` instead of writing; forwards when nothing is scripted.
    ///
    /// - Throws: What `body` throws, the scripted error (nothing is written), or what the
    ///   wrapped store throws.
    public func update<R>(forKey key: String, _ body: (inout StoredValue?) throws -> R) throws -> R {
        guard let error = scriptedError(for: .update, key: key) else {
            return try wrapped.update(forKey: key, body)
        }
        // A throwing body makes the wrapped store write nothing (the `Storable` contract).
        return try wrapped.update(forKey: key) { value -> R in
            var copy = value
            _ = try body(&copy)
            throw error
        }
    }

    /// Forwards to the wrapped store.
    public func changes() -> AsyncStream<StoredChange> {
        wrapped.changes()
    }
}
