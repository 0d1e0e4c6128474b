package import StoredSettings

extension EnvironmentStore: DiagnosingStore {}

/// The warnings already reported in this process, so each is reported once however many
/// stores and commands find it.
package enum ReportedWarnings {
    private static let reported = Lock<Set<String>>([])

    /// Whether `warning` has not been reported before in this process; marks it reported.
    package static func isFirstReport(of warning: StorageError) -> Bool {
        reported.withLock { $0.insert(warning.description).inserted }
    }
}
