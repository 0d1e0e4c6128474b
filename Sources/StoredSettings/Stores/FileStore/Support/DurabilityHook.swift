/// A hook into the durable steps of a store's writes, for the package's tests and benchmarks:
/// count, hold, fail or skip an `fsync`. Set per store (`FileStore.Options.durabilityHook`);
/// every hook compares equal, so options with and without one are the same options.
package struct DurabilityHook: Equatable, Sendable {
    /// A durable step of a write.
    package enum Step: Sendable, Equatable {
        /// Right before the temporary file's `fsync`.
        case fileSync
        /// Right before the `rename` over the file.
        case rename
        /// Right before the folder's `fsync`, after the `rename`.
        case folderSync
    }

    /// Runs on the writing thread before a step; returns whether to make its `fsync` (a
    /// `rename` is always made). A throw before the `rename` cancels the write; at
    /// ``Step/folderSync`` it counts as the folder's `fsync` failing, which the write does not
    /// report.
    package let run: @Sendable (Step) throws -> Bool

    package init(_ run: @escaping @Sendable (Step) throws -> Bool) {
        self.run = run
    }

    package static func == (lhs: DurabilityHook, rhs: DurabilityHook) -> Bool { true }
}
