import Foundation

/// Keeps an iOS, tvOS, watchOS or visionOS process running while it holds a file lock, since
/// those systems kill a process suspended holding a lock in a shared container (`0xdead10cc`).
///
/// Uses `ProcessInfo.performExpiringActivity(withReason:using:)`, whose block waits for
/// ``end()`` or for the system to say the time is up; asks for nothing on macOS and Linux.
/// See <doc:PlatformNotes>.
///
/// Thread-safety: `end()` may be called from any thread, once per activity.
final class BackgroundActivity: Sendable {
    private let ended = DispatchSemaphore(value: 0)

    /// Asks the system to keep the process running until ``end()``; `reason` names the work
    /// for the system's debugging tools.
    init(reason: String) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        let ended = self.ended
        ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
            // The first call holds the time until `end()`; one saying the time is up releases it.
            if expired { ended.signal() } else { ended.wait() }
        }
        #endif
    }

    /// Tells the system the work is done.
    func end() {
        ended.signal()
    }
}
