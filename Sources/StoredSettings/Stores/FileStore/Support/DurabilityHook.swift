/// A package-internal hook into the durable steps of ``AtomicFile/write(_:toPath:permissions:owner:beforeReplace:)``,
/// for the tests and the benchmarks of the package: count the `fsync` rounds of a file, hold a
/// writer inside one, make one fail, or skip one to measure its share of a write.
///
/// An action is installed for one destination path (the path ``AtomicFile`` writes to, with
/// symbolic links already resolved), so tests on different files never see each other's
/// actions and need not run one after the other. With no action installed, each step costs
/// one lock and one check that a dictionary is empty.
///
/// Thread-safety: every member may be used from any thread; an action runs on the writing
/// thread, outside the hook's lock.
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

    /// Runs before `step`; returns whether the step's system call is made (`false` skips an
    /// `fsync`; a `rename` is always made). What it throws at ``Step/fileSync`` or
    /// ``Step/rename`` cancels the write, which rethrows it, leaving the file untouched; at
    /// ``Step/folderSync`` the file is already replaced, and a throw counts as the folder's
    /// `fsync` failing, which the write, as always, does not report.
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
