import Foundation

/// Keeps an iOS, tvOS, watchOS or visionOS process running while it holds a file lock.
///
/// Those systems kill a process suspended while it holds a lock on a file in a container it
/// shares with another process (an App Group's, say), with the exception code `0xdead10cc`; Apple's
/// "Understanding the exception types in a crash report" (Apple Developer Documentation) tells an
/// app to ask for background time before it starts such a write, and an app extension to do the
/// same. `ProcessInfo.performExpiringActivity(withReason:using:)`, which works in apps and app
/// extensions alike, keeps the process running until the block it was given returns: the block
/// here waits for ``end()``, or returns as soon as the system says the time is up (the write then
/// finishes as fast as it can). On macOS and Linux, which do not suspend a process for this, it
/// asks for nothing.
///
/// Thread-safety: `end()` may be called from any thread, once per activity.
package final class BackgroundActivity: Sendable {
    private let ended = DispatchSemaphore(value: 0)

    /// Asks the system to keep the process running until ``end()``; `reason` names the work
    /// for the system's debugging tools.
    package init(reason: String) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        let ended = self.ended
        ProcessInfo.processInfo.performExpiringActivity(withReason: reason) { expired in
            // Run on a queue of the system's: the first call holds the time until `end()`; a
            // call saying the time is up lets that first call return at once.
            if expired { ended.signal() } else { ended.wait() }
        }
        #endif
    }

    /// Tells the system the work is done.
    package func end() {
        ended.signal()
    }
}
