import Foundation

/// The time limit of every suite in this package's own tests: a guard against a test that
/// waits forever, never a measure of speed.
///
/// Swift Testing counts a limit from the test's start, and on a loaded machine a test may wait
/// long for a thread, a child process or a slot for its etcd cluster (``ProcessSlots``) while
/// its limit runs. So the limit is far beyond the whole suite's running time, not one test's:
/// the suite takes 2 to 4 minutes beside two busy loops per core on two cores, and the guard
/// is 20 minutes (30 under the thread sanitizer, which slows this code 5 to 20 times; its whole
/// suite takes about 3 minutes). Only a wait for an event that never comes reaches it, and it
/// fires early enough that CI still reports the hang within its own time.
package enum HangGuard {
    /// The limit in minutes, for `.timeLimit(.minutes(HangGuard.minutes))`.
    package static let minutes = isThreadSanitizerActive ? 30 : 20

    /// Whether the process runs with the thread sanitizer's runtime (detected by
    /// `STORED_SETTINGS_TSAN` being set, as `.ci/run` does, or the runtime's `__tsan_init`).
    package static let isThreadSanitizerActive: Bool = {
        if ProcessInfo.processInfo.environment["STORED_SETTINGS_TSAN"] != nil { return true }
        guard let handle = dlopen(nil, RTLD_NOW) else { return false }
        defer { dlclose(handle) }
        return dlsym(handle, "__tsan_init") != nil
    }()
}
