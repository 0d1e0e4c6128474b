import Foundation
import StoredSettings
import Testing

/// A file lock asks for background time (on iOS, tvOS, watchOS and visionOS, where a process
/// suspended while it holds one in a shared container is killed) from before its `flock` until it
/// is released, and never keeps it after a failure.
@Suite(.timeLimit(TestScale.hangGuard))
struct FileLockBackgroundTimeTests {
    @Test func aHeldLockAsksForBackgroundTimeUntilItIsReleased() throws {
        let folder = try ScratchFolder()
        let lock = FileLock(path: folder.file("settings.json.lock").path)
        #expect(!lock.holdsBackgroundActivity)
        try lock.lock()
        #expect(lock.holdsBackgroundActivity)
        lock.unlock()
        #expect(!lock.holdsBackgroundActivity)
        try lock.withLock { #expect(lock.holdsBackgroundActivity) }
        #expect(!lock.holdsBackgroundActivity)
    }

    @Test func aLockThatCannotBeTakenKeepsNoBackgroundTime() throws {
        let folder = try ScratchFolder()
        let lock = FileLock(path: folder.file("missing/settings.json.lock").path)
        #expect(throws: StorageError.self) { try lock.lock() }
        #expect(!lock.holdsBackgroundActivity)
    }
}
