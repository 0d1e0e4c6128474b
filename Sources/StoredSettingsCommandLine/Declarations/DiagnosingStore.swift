package import StoredSettings

/// A layer that checks its input once, when it is made, and keeps what it found: the layered
/// store of a declared group collects every layer's ``warnings``, and `CommandLineSettings`
/// stops on every layer's ``errors``.
package protocol DiagnosingStore: Storable {
    /// Input that cannot be used, in order: nothing of it was applied.
    var errors: [StorageError] { get }
    /// Input that is used or ignored but is probably a mistake, in order.
    var warnings: [StorageError] { get }
}

extension EnvironmentStore: DiagnosingStore {}

extension FileStore: DiagnosingStore {
    /// None: a file that cannot be read is thrown by the initializer or reported when it is
    /// read again. Its warnings are the keys the file repeats.
    package var errors: [StorageError] { [] }
}

/// The warnings already reported in this process, so each is reported once however many
/// stores and commands find it.
package enum ReportedWarnings {
    private static let reported = Lock<Set<String>>([])

    /// Whether `warning` has not been reported before in this process; marks it reported.
    package static func isFirstReport(of warning: StorageError) -> Bool {
        reported.withLock { $0.insert(warning.description).inserted }
    }
}
