import Foundation

/// Where errors from non-throwing paths go: the getter and setter of ``Stored``, observation
/// streams, and stores that notice a problem in the background.
///
/// Nothing is silent: a getter that falls back to the default because the stored data does not
/// decode reports why here. By default each report is written as one line to standard error.
///
/// Install a handler for the whole process with ``setHandler(_:)``, or capture reports in a
/// test, without disturbing tests running in parallel, with ``withHandler(_:operation:)`` (the
/// handler is bound to the current task and its child tasks through a task-local value):
///
/// ```swift
/// StorageErrorReporter.withHandler({ error in print("settings problem:", error) }) {
///     _ = settings.launchCount
/// }
/// ```
///
/// In tests, `ReportedErrors` of the `StoredSettingsTestSupport` library collects the reports:
/// `let reported = ReportedErrors(); reported.capture { … }; #expect(reported.codes == […])`.
///
/// Thread-safety: every member may be called from any thread or task.
public enum StorageErrorReporter {
    /// A function that receives reported errors. It is called on the thread that hit the
    /// error, outside every lock of the package.
    public typealias Handler = @Sendable (StorageError) -> Void

    @TaskLocal static var taskHandler: Handler?

    private static let processHandler = Lock<Handler>(writeToStandardError)

    /// Reports `error` to the handler bound to the current task, else the process's handler.
    public static func report(_ error: StorageError) {
        if let handler = taskHandler {
            handler(error)
        } else {
            processHandler.withLock { $0 }(error)
        }
    }

    /// Replaces the process-wide handler; the default writes one line to standard error.
    public static func setHandler(_ handler: @escaping Handler) {
        processHandler.withLock { $0 = handler }
    }

    /// Runs `operation` with `handler` receiving every report made from the current task and
    /// the tasks it creates, then restores the previous binding.
    ///
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withHandler<R>(
        _ handler: @escaping Handler,
        operation: () throws -> R
    ) rethrows -> R {
        try $taskHandler.withValue(handler, operation: operation)
    }

    /// Runs the asynchronous `operation` with `handler` receiving every report made from the
    /// current task and the tasks it creates.
    ///
    /// - Returns: What `operation` returns.
    /// - Throws: What `operation` throws.
    public static func withHandler<R>(
        _ handler: @escaping Handler,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> R
    ) async rethrows -> R {
        try await $taskHandler.withValue(handler, operation: operation, isolation: isolation)
    }

    /// The default handler: one line, `StoredSettings: <description>`, on standard error.
    package static let writeToStandardError: Handler = { error in
        let line = Array("StoredSettings: \(error.description)\n".utf8)
        // A closed or full standard error loses the line; reporting never traps.
        _ = line.withUnsafeBytes { DescriptorWrite.writeAll(2, $0) }
    }
}
