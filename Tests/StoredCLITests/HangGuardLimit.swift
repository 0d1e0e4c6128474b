import StoredSettingsTestSupport
import Testing

extension TimeLimitTrait.Duration {
    /// The time limit of every suite here: ``HangGuard``'s, which catches a wait that never
    /// ends, never a slow machine.
    static let hangGuard: Self = .minutes(HangGuard.minutes)
}
