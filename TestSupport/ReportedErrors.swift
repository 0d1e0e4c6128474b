public import StoredSettings

/// Collects the errors reported to ``StorageErrorReporter`` while an operation runs: the way
/// a test checks that a getter or setter reported what went wrong.
///
/// ```swift
/// let reported = ReportedErrors()
/// let count = reported.capture { settings.launchCount }   // "three" is stored
/// #expect(count == 0)
/// #expect(reported.codes == [.typeMismatch])
/// ```
///
/// ``capture(_:)`` binds the handler to the current task only (a task-local value, through
/// ``StorageErrorReporter/withHandler(_:operation:)``), so tests running in parallel each see
/// only their own reports. Tasks created inside the operation report here too, as do
/// ``Stored/updates`` streams first read inside it.
///
/// It does not import a test framework, so previews and tools can use it too.
///
/// Thread-safety: every member may be used from any thread or task.
public final class ReportedErrors: Sendable {
    private let collected = Lock<[StorageError]>([])

    /// Creates an empty collection.
    public init() {}

    /// Every error reported so far, oldest first.
    public var errors: [StorageError] { collected.value }

    /// The codes of ``errors``, oldest first.
    public var codes: [StorageError.Code] { errors.map(\.code) }

    /// Whether nothing has been reported.
    public var isEmpty: Bool { collected.withLock { $0.isEmpty } }

    /// Forgets every collected error.
    public func removeAll() {
        collected.withLock { $0.removeAll() }
    }

    /// A handler that adds each report to this collection, for
    /// ``StorageErrorReporter/setHandler(_:)`` or `withHandler`.
    public var handler: StorageErrorReporter.Handler {
        { [collected] error in collected.withLock { $0.append(error) } }
    }

    /// Runs `operation`, collecting what it reports.
    ///
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public func capture<R>(_ operation: () throws -> R) rethrows -> R {
        try StorageErrorReporter.withHandler(handler, operation: operation)
    }

    /// Runs the asynchronous `operation`, collecting what it and its child tasks report.
    ///
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public func capture<R>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> R
    ) async rethrows -> R {
        try await StorageErrorReporter.withHandler(handler, isolation: isolation, operation: operation)
    }
}
