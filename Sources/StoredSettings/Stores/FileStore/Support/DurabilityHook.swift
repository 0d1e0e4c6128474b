/// A hook into the durable steps of ``AtomicFile``'s writes, for the package's tests and
/// benchmarks: count, hold, fail or skip an `fsync`. Actions are installed per resolved path,
/// so tests on different files never see each other's.
///
/// Thread-safety: any thread; an action runs on the writing thread, outside the hook's lock.
package enum DurabilityHook {
    /// A durable step of a write.
    package enum Step: Sendable, Equatable {
        /// Right before the temporary file's `fsync`.
        case fileSync
        /// Right before the `rename` over the file.
        case rename
        /// Right before the folder's `fsync`, after the `rename`.
        case folderSync
    }

    /// Runs before `step`; returns whether to make its `fsync` (a `rename` is always made). A
    /// throw before the `rename` cancels the write; at ``Step/folderSync`` it counts as the
    /// folder's `fsync` failing, which the write does not report.
    package typealias Action = @Sendable (Step) throws -> Bool

    private static let actions = Lock<[String: Action]>([:])

    /// Installs `action` for writes to `path`, replacing any installed before.
    package static func install(forPath path: String, _ action: @escaping Action) {
        actions.withLock { $0[path] = action }
    }

    /// Removes the action for `path`.
    package static func remove(forPath path: String) {
        actions.withLock { $0[path] = nil }
    }

    /// Runs the action for `path` before `step`, if one is installed.
    ///
    /// - Returns: Whether to make the step's system call: `true` without an action.
    /// - Throws: What the action throws.
    static func run(_ step: Step, path: String) throws -> Bool {
        guard let action = actions.withLock({ $0.isEmpty ? nil : $0[path] }) else { return true }
        return try action(step)
    }
}
