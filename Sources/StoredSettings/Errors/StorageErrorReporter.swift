import Foundation

/// Where errors from non-throwing paths go: the getter and setter of ``Stored``, observation
/// streams, and stores that notice a problem in the background.
///
/// Nothing is silent: a getter that falls back to the default reports why here. By default
/// each report is one line on standard error. Install a handler for the process with
/// ``setHandler(_:)``, or for the current task and its child tasks with
/// ``withHandler(_:operation:)``; <doc:TestingWithSettings> shows how tests capture reports.
///
/// Thread-safety: every member may be called from any thread or task.
public enum StorageErrorReporter {
    /// A function that receives reported errors. It is called on the thread that hit the
    /// error, outside every lock of the package.
    public typealias Handler = @Sendable (StorageError) -> Void

    @TaskLocal static var taskHandler: Handler?

    /// The handler set for the process (`nil`: the default line), and the default line's start.
    private static let process = Lock<(handler: Handler?, prefix: String)>((nil, "StoredSettings:"))

    /// Reports `error` to the handler bound to the current task, else the process's handler.
    public static func report(_ error: StorageError) {
        if let handler = taskHandler { return handler(error) }
        let (handler, prefix) = process.withLock { $0 }
        if let handler { return handler(error) }
        let line = Array("\(prefix) \(error.description)\n".utf8)
        // A closed or full standard error loses the line; reporting never traps.
        _ = line.withUnsafeBytes { DescriptorWrite.writeAll(2, $0) }
    }

    /// Replaces the process-wide handler; the default writes one line to standard error,
    /// `StoredSettings: <description>` (`<tool>: warning: <description>` in a tool that reads
    /// its settings with `CommandLineSettings`).
    public static func setHandler(_ handler: @escaping Handler) {
        process.withLock { $0.handler = handler }
    }

    /// Makes the default line start with `<toolName>: warning:`, as a tool's own warnings do;
    /// a handler set with ``setHandler(_:)`` stays as it is.
    package static func nameDefaultLines(after toolName: String) {
        process.withLock { $0.prefix = "\(toolName): warning:" }
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
}
