import Foundation

/// Chooses the store of ``Stored`` settings that are created without a `store:` argument.
///
/// A wrapper created without `store:` takes, at creation:
/// 1. the store bound by ``withStore(_:operation:)`` (which ``SettingsGroup/init(store:)``
///    uses) in the current task, else
/// 2. ``defaultStore``.
///
/// ```swift
/// let store = try FileStore(url: URL(fileURLWithPath: "preview-settings.json"))
/// let settings = StoreContext.withStore(store) { AppSettings() }
/// ```
///
/// Thread-safety: every member may be used from any thread or task; the binding is task-local,
/// so parallel tests can each bind their own store.
public enum StoreContext {
    @TaskLocal static var boundStore: (any Storable)?

    /// The store bound by the innermost ``withStore(_:operation:)`` or
    /// ``SettingsGroup/init(store:)`` on this thread: their operations are synchronous, so the
    /// binding never outlives a suspension, and it is cheaper to read than the task-local.
    private final class ThreadBinding {
        let store: any Storable
        init(_ store: any Storable) { self.store = store }
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        // No destructor: every binding is removed before its operation returns.
        pthread_key_create(&key, nil)
        return key
    }()

    private static let defaultStorage = Lock<(any Storable)?>(nil)

    /// The store used when nothing else is chosen.
    ///
    /// Unless set, created on first use: `UserDefaultsStore.standard` on Apple platforms; on
    /// Linux `FileStore(application:)` named after the executable. If that file cannot be
    /// opened, the error is reported once and the default store holds nothing and refuses
    /// every write with that error, leaving the file for the user to fix (see
    /// <doc:GettingStarted>).
    ///
    /// Setting it affects wrappers created afterwards; existing wrappers keep their store.
    public static var defaultStore: any Storable {
        get {
            // Reports made while opening are replayed after the lock, so a handler may use the
            // default store.
            let reports = Lock<[StorageError]>([])
            let store = defaultStorage.withLock { store in
                if let store { return store }
                let created = StorageErrorReporter.withHandler({ error in reports.withLock { $0.append(error) } }) {
                    makeDefaultStore()
                }
                store = created
                return created
            }
            for report in reports.value { StorageErrorReporter.report(report) }
            return store
        }
        set {
            defaultStorage.withLock { $0 = newValue }
        }
    }

    /// Runs `operation` with `store` as the store of every ``Stored`` wrapper created in it
    /// without a `store:` argument, in the current task and the tasks it creates.
    ///
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withStore<R>(_ store: any Storable, operation: () throws -> R) rethrows -> R {
        try $boundStore.withValue(store) { try withThreadStore(store, operation: operation) }
    }

    /// Runs `operation` with `store` as the store of every ``Stored`` wrapper created in it, on
    /// this thread, without a `store:` argument; tasks it creates do not inherit the binding.
    static func withThreadStore<R>(_ store: any Storable, operation: () throws -> R) rethrows -> R {
        let binding = ThreadBinding(store)
        let previous = pthread_getspecific(threadKey)
        pthread_setspecific(threadKey, Unmanaged.passUnretained(binding).toOpaque())
        defer { pthread_setspecific(threadKey, previous) }
        return try withExtendedLifetime(binding) { try operation() }
    }

    /// The store for a wrapper created now without a `store:` argument.
    @usableFromInline static var resolvedStore: any Storable {
        if let binding = pthread_getspecific(threadKey) {
            return Unmanaged<ThreadBinding>.fromOpaque(binding).takeUnretainedValue().store
        }
        return boundStore ?? defaultStore
    }

    private static func makeDefaultStore() -> any Storable {
        #if canImport(Darwin)
        return UserDefaultsStore.standard
        #else
        let name = ProcessInfo.processInfo.processName
        do {
            return try FileStore(application: name.isEmpty ? "StoredSettings" : name)
        } catch {
            var problem = error as? StorageError ?? StorageError(.io, wrapping: error)
            let opening = problem
            problem.message =
                (problem.message.map { $0 + "; " } ?? "")
                + "settings read their defaults and changes will not be saved until the file is fixed"
            StorageErrorReporter.report(problem)
            return UnopenableFileStore(problem: opening)
        }
        #endif
    }
}
